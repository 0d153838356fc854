// The promise "an earlier version never changes, and a working copy changes only
// through requests on it" (Rules V1-V5 of repo/versions/version_files.h and
// docs/STORAGE.md §4.2), tried over HTTP in both variants against every sequence of
// check-outs, check-ins (with and without content) and cancels, with hand edits of the
// visible file in between.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

#include "folio/fsck.h"
#include "http/server_fixture.h"
#include "http/versioning_support.h"
#include "repo/versions/version_files.h"

namespace folio::testing {
namespace {

struct Doc {
  const Var& v;
  std::string dir;   // data directory
  std::string name;  // in /docs
  std::string Visible() const { return dir + "/demo/" + v.repo + "/docs/" + name; }
  std::string Series() const { return dir + "/demo/" + v.repo + "/docs/.folio/docs/" + name; }
  std::string Content(const std::string& label) const { return Series() + "/" + label + ".content"; }
};

ino_t Inode(const std::string& path) {
  struct stat st {};
  REQUIRE_MESSAGE(::stat(path.c_str(), &st) == 0, path);
  return st.st_ino;
}

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

void AppendByHand(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << bytes;
}

httplib::Result PostJson(httplib::Client& c, const std::string& path, const Json& body) {
  return c.Post(path.c_str(), body.dump(), "application/json");
}

std::string ContentOf(httplib::Client& c, const Var& v, const std::string& id) {
  auto r = c.Get((v.Url() + "?cmisselector=content&objectId=" + id).c_str());
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  return r->body;
}

std::string Findings(const FsckReport& report) {
  std::string out;
  for (const Finding& f : report.findings) out += f.id + " " + f.path + ": " + f.message + " -> " + f.repair + "\n";
  return out;
}

// Rule V1: no content file of the series but the latest version's shares the visible
// file's inode.
void CheckSharing(const Doc& d, const std::vector<std::string>& labels) {
  const ino_t visible = Inode(d.Visible());
  for (size_t i = 0; i + 1 < labels.size(); ++i) {
    if (!Exists(d.Content(labels[i]))) continue;
    CHECK_MESSAGE(Inode(d.Content(labels[i])) != visible, "version " << labels[i] << " shares the visible file");
  }
  if (Exists(d.Content("pwc"))) CHECK_MESSAGE(Inode(d.Content("pwc")) != visible, "the working copy shares it");
}

}  // namespace

TEST_CASE("History: a hand edit never reaches an earlier version or the working copy (Rules V1-V4)") {
  // Each step: "out" (checkOut of the latest), "in" (checkIn without content), "in+"
  // (checkIn with content), "cancel", "edit" (an append to the visible file by hand).
  const std::vector<std::vector<std::string>> sequences = {
      {"out", "in"},                         // the issue's: 1.0, 1.1 and the file one inode
      {"out", "edit", "in"},                 // edited while checked out
      {"out", "in", "out", "in"},            // twice without content
      {"out", "cancel"},                     // cancelled
      {"out", "in+", "out", "cancel", "out", "in"},
  };
  ServerFixture f;
  auto c = f.Client();
  int n = 0;
  for (const Var* v : {&kVarA, &kVarB}) {
    for (const auto& steps : sequences) {
      const std::string name = "hist" + std::to_string(n++) + ".txt";
      CAPTURE(v->repo);
      CAPTURE(name);
      const Doc d{*v, f.dir(), name};
      const auto doc = CreateDoc(c, *v, name, "first\n");
      const std::string series = Get(doc, v->Id("versionSeriesId"));
      std::vector<std::string> labels = {"1.0"};
      std::map<std::string, std::string> expected = {{"1.0", "first\n"}};  // each version's bytes
      std::string pwc, pwc_bytes;
      for (const std::string& step : steps) {
        CAPTURE(step);
        if (step == "out") {
          auto r = PostJson(c, v->Url(), {{"operation", "checkOut"}, {"objectId", series}});
          REQUIRE(r);
          REQUIRE_MESSAGE(r->status == 201, r->body);
          pwc = Get(Flat(BodyJson(r)), v->Id("objectId"));
          pwc_bytes = expected[labels.back()];
        } else if (step == "in" || step == "in+") {
          const std::string label = std::to_string(std::stoi(labels.back()) + 1) + ".0";
          if (step == "in+") pwc_bytes = "checked in " + label + "\n";
          Upload up{pwc_bytes, name, "text/plain"};
          auto r = step == "in+" ? PostAs(c, v->Url(), Encoding::kMultipart,
                                          {{"operation", "checkIn"}, {"objectId", pwc}}, Json::object(), &up)
                                 : PostJson(c, v->Url(), {{"operation", "checkIn"}, {"objectId", pwc}});
          REQUIRE(r);
          REQUIRE_MESSAGE(r->status == 201, r->body);
          labels.push_back(label);
          expected[label] = pwc_bytes;
          pwc.clear();
        } else if (step == "cancel") {
          auto r = PostJson(c, v->Url(), {{"operation", "cancelCheckOut"}, {"objectId", pwc}});
          REQUIRE(r);
          REQUIRE_MESSAGE(r->status == 200, r->body);
          pwc.clear();
        } else if (step == "edit") {
          // An update of the latest version (Rule V2), not read before the next step.
          AppendByHand(d.Visible(), "edited\n");
          expected[labels.back()] += "edited\n";
        }
        CheckSharing(d, labels);
      }
      // The hand edit of the issue: it updates the latest version, and only it.
      AppendByHand(d.Visible(), "more\n");
      expected[labels.back()] += "more\n";
      for (const std::string& label : labels) {
        CHECK_MESSAGE(ContentOf(c, *v, series + ";" + label) == expected[label], "version " << label);
      }
      if (!pwc.empty()) CHECK(ContentOf(c, *v, pwc) == pwc_bytes);
      // Nothing is damaged; the last edit may not have been taken in yet (a warning).
      auto report = RunFsck(f.dir(), FsckOptions{});
      REQUIRE(report.ok());
      CAPTURE(Findings(*report));
      for (const Finding& found : report->findings) CHECK(found.id == "latest-content-mismatch");
    }
  }
}

TEST_CASE("History: each version records the SHA-256 of its content, shown as cmis:contentStreamHash (Rule V5)") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var* v : {&kVarA, &kVarB}) {
    CAPTURE(v->repo);
    // Small content (kept in memory) and large (streamed to an upload file).
    const std::string large(200 * 1024, 'x');
    for (const auto& [name, bytes, sha] :
         {std::tuple<std::string, std::string, std::string>{
              "abc.txt", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
          {"large.txt", large, repo::versions::Sha256Hex(large)}}) {
      const std::string& file = name;  // named: clang 14's lambdas (CAPTURE) take no structured binding
      CAPTURE(file);
      const auto doc = CreateDoc(c, *v, name, bytes);
      CHECK(Get(doc, v->Id("contentStreamHash")) == Json::array({"{sha-256}" + sha}));
      const auto record = Json::parse(
          ReadDiskFile(f.dir() + "/demo/" + v->repo + "/docs/.folio/docs/" + name + "/1.0.json"));
      CHECK(record["content"]["sha256"] == sha);
      // A check-out copies the digest with the bytes; a check-in without content keeps both.
      auto out = PostJson(c, v->Url(), {{"operation", "checkOut"}, {"objectId", Get(doc, v->Id("objectId"))}});
      REQUIRE(out);
      REQUIRE_MESSAGE(out->status == 201, out->body);
      const auto pwc = Flat(BodyJson(out));
      CHECK(Get(pwc, v->Id("contentStreamHash")) == Json::array({"{sha-256}" + sha}));
      auto in = PostJson(c, v->Url(), {{"operation", "checkIn"}, {"objectId", Get(pwc, v->Id("objectId"))}});
      REQUIRE(in);
      REQUIRE_MESSAGE(in->status == 201, in->body);
      CHECK(Get(Flat(BodyJson(in)), v->Id("contentStreamHash")) == Json::array({"{sha-256}" + sha}));
    }
  }
}

TEST_CASE("Fsck: changed content of an earlier version is damage that --repair never accepts (version-content-changed)") {
  ServerFixture f;
  auto c = f.Client();
  const Var& v = kVarA;
  const Doc d{v, f.dir(), "kept.txt"};
  const auto doc = CreateDoc(c, v, d.name, "version one\n");
  auto out = PostJson(c, v.Url(), {{"operation", "checkOut"}, {"objectId", Get(doc, "objectId")}});
  REQUIRE(out);
  REQUIRE(out->status == 201);
  Upload up{"version two\n", d.name, "text/plain"};
  auto in = PostAs(c, v.Url(), Encoding::kMultipart,
                   {{"operation", "checkIn"}, {"objectId", Get(Flat(BodyJson(out)), "objectId")}}, {}, &up);
  REQUIRE(in);
  REQUIRE(in->status == 201);
  const std::string record_path = d.Series() + "/1.0.json";
  const std::string record = ReadDiskFile(record_path);

  SUBCASE("the same length: the digest tells") {
    {
      std::fstream file(d.Content("1.0"), std::ios::in | std::ios::out | std::ios::binary);
      file.seekp(0);
      file << "VERSION";
    }
    for (const bool repair : {false, true}) {
      auto report = RunFsck(f.dir(), FsckOptions{.repair = repair});
      REQUIRE(report.ok());
      CAPTURE(Findings(*report));
      REQUIRE(report->findings.size() == 1);
      const Finding& found = report->findings[0];
      CHECK(found.id == "version-content-changed");
      CHECK(found.severity == Severity::kError);
      CHECK(found.path == "demo/alpha/docs/.folio/docs/kept.txt/1.0.content");
      CHECK(found.message.find("version 1.0") != std::string::npos);
      CHECK(found.message.find("not repaired") != std::string::npos);
      CHECK(found.repair.empty());
    }
  }
  SUBCASE("another length: the record's length is not rewritten") {
    AppendByHand(d.Content("1.0"), "more\n");
    for (const bool repair : {false, true}) {
      auto report = RunFsck(f.dir(), FsckOptions{.repair = repair});
      REQUIRE(report.ok());
      CAPTURE(Findings(*report));
      REQUIRE(report->findings.size() == 1);
      CHECK(report->findings[0].id == "content-length-mismatch");
      CHECK(report->findings[0].message.find("not repaired") != std::string::npos);
      CHECK(report->findings[0].repair.empty());
    }
  }
  SUBCASE("a wrong length in the record, the bytes as checked in: repaired") {
    std::string wrong = record;
    const size_t at = wrong.find("\"length\": 12");
    REQUIRE(at != std::string::npos);
    wrong.replace(at, 12, "\"length\": 99");
    std::ofstream(record_path, std::ios::binary | std::ios::trunc) << wrong;
    auto report = RunFsck(f.dir(), FsckOptions{.repair = true});
    REQUIRE(report.ok());
    CAPTURE(Findings(*report));
    REQUIRE(report->findings.size() == 1);
    CHECK(report->findings[0].id == "content-length-mismatch");
    CHECK(!report->findings[0].repair.empty());
    CHECK(Json::parse(ReadDiskFile(record_path))["content"]["length"] == 12);
    CHECK(RunFsck(f.dir(), FsckOptions{})->clean());
    return;
  }
  // Nothing was rewritten to accept the change, and version 1.0 is served as it is.
  CHECK(ReadDiskFile(record_path) == record);
}

TEST_CASE("History: records without digests (older data) load, and fsck says nothing of them") {
  ServerFixture f;
  auto c = f.Client();
  const Var& v = kVarB;
  const Doc d{v, f.dir(), "old.txt"};
  CreateDoc(c, v, d.name, "older data\n");
  const std::string record_path = d.Series() + "/1.0.json";
  auto record = Json::parse(ReadDiskFile(record_path));
  record["content"].erase("sha256");
  std::ofstream(record_path, std::ios::binary | std::ios::trunc) << record.dump(2) << "\n";
  auto got = c.Get((v.Url() + "/docs/old.txt?cmisselector=object").c_str());
  REQUIRE(got);
  REQUIRE_MESSAGE(got->status == 200, got->body);
  CHECK(Get(Flat(BodyJson(got)), "cmis:contentStreamHash").is_null());
  CHECK(Get(Flat(BodyJson(got)), "cmis:contentStreamLength") == 11);
  auto report = RunFsck(f.dir(), FsckOptions{});
  REQUIRE(report.ok());
  CAPTURE(Findings(*report));
  CHECK(report->clean());
}

}  // namespace folio::testing
