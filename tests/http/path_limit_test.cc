// The promise "a failed request changes nothing", for the path limit (Rule P1,
// storage/name_rules.h; docs/API.md limits): an object's path below its repository's
// root folder is at most 4,000 bytes; beyond it every change that would make such a
// path answers constraint (409) with a short message, before anything is staged.
#include <doctest/doctest.h>

#include "folio/fsck.h"
#include "http/server_fixture.h"
#include "http/versioning_support.h"

namespace folio::testing {
namespace {

httplib::Result PostJson(httplib::Client& c, const std::string& path, const Json& body) {
  return c.Post(path.c_str(), body.dump(), "application/json");
}

// createFolder (or a document, with `content`) named `name` in folder `parent_id`.
httplib::Result Create(httplib::Client& c, const Var& v, const std::string& parent_id, const std::string& name,
                       bool folder) {
  Json body = {{"operation", folder ? "createFolder" : "createDocument"},
               {"objectId", parent_id},
               {"properties", {{v.Id("name"), name}, {v.Id("objectTypeId"), v.p + (folder ? "folder" : "document")}}}};
  if (!folder) body["content"] = "bytes";
  return PostJson(c, v.Url(), body);
}

std::string IdOf(const httplib::Result& r, const Var& v) {
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  return Get(Flat(BodyJson(r)), v.Id("objectId"));
}

void CheckRefused(const httplib::Result& r, const std::string& culprit) {
  REQUIRE(r);
  CHECK_MESSAGE(r->status == 409, r->body);
  CHECK(ErrorName(r) == "constraint");
  const std::string message = ErrorMessage(r);
  CHECK(message.find("path too long") != std::string::npos);
  CHECK(message.find(culprit.substr(0, 20)) != std::string::npos);
  CHECK(message.size() < 400);  // names the culprit, shortened: not 4 KB of path
}

std::string Findings(const FsckReport& report) {
  std::string out;
  for (const Finding& f : report.findings) out += f.id + " " + f.path.substr(0, 80) + ": " + f.message.substr(0, 200) + "\n";
  return out;
}

void CheckFsckClean(const std::string& dir) {
  auto report = RunFsck(dir, FsckOptions{});
  REQUIRE(report.ok());
  CAPTURE(Findings(*report));
  CHECK(report->clean());
}

}  // namespace

TEST_CASE("Path limit: nested createFolder stops at 4,000 bytes with constraint and leaves no damage") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var* v : {&kVarA, &kVarB}) {
    CAPTURE(v->repo);
    const std::string docs = Get(Flat(GetJson(c, v->Url() + "/docs?cmisselector=object")), v->Id("objectId"));
    const std::string deep = IdOf(Create(c, *v, docs, "deep", true), *v);
    // "docs/deep" and levels of 200-byte names: the 19th level's path is 3,828 bytes
    // long, the 20th's would be 4,029.
    const std::string name(200, v->p.empty() ? 'a' : 'b');
    std::vector<std::string> chain = {deep};
    size_t path_bytes = std::string("docs/deep").size();
    for (int level = 1;; ++level) {
      REQUIRE(level <= 25);
      auto r = Create(c, *v, chain.back(), name, true);
      REQUIRE(r);
      if (path_bytes + 1 + name.size() > 4000) {
        CheckRefused(r, name);
        CHECK(level == 20);
        break;
      }
      chain.push_back(IdOf(r, *v));
      path_bytes += 1 + name.size();
    }
    // A document fits exactly at the limit, not one byte beyond it.
    const std::string fits(4000 - path_bytes - 1, 'd');
    const std::string doc = IdOf(Create(c, *v, chain.back(), fits, false), *v);
    CheckRefused(Create(c, *v, chain.back(), fits + "x", false), fits);

    // Every ancestor's descendants and folder tree still answer, and fsck finds nothing.
    for (const std::string& id : chain) {
      for (const char* selector : {"descendants", "folderTree"}) {
        auto r = c.Get((v->Url() + "?cmisselector=" + selector + "&objectId=" + id).c_str());
        REQUIRE(r);
        CHECK_MESSAGE(r->status == 200, selector, " ", r->body.substr(0, 300));
      }
    }
    CheckFsckClean(f.dir());

    // A rename beyond the limit: refused, the name unchanged.
    CheckRefused(PostJson(c, v->Url(), {{"operation", "update"}, {"objectId", doc},
                                        {"properties", {{v->Id("name"), fits + "y"}}}}),
                 fits);
    CHECK(Get(Flat(GetJson(c, v->Url() + "?cmisselector=object&objectId=" + doc)), v->Id("name")) == fits);
    // A check-in that renames beyond it: refused, still checked out.
    auto out = PostJson(c, v->Url(), {{"operation", "checkOut"}, {"objectId", doc}});
    REQUIRE(out);
    REQUIRE_MESSAGE(out->status == 201, out->body);
    const std::string pwc = Get(Flat(BodyJson(out)), v->Id("objectId"));
    CheckRefused(PostJson(c, v->Url(), {{"operation", "checkIn"}, {"objectId", pwc},
                                        {"properties", {{v->Id("name"), fits + "z"},
                                                        {v->Id("objectTypeId"), v->p + "document"}}}}),
                 fits);
    CHECK(Get(Flat(GetJson(c, v->Url() + "?cmisselector=object&objectId=" + pwc)), v->Id("isPrivateWorkingCopy")) ==
          true);
    REQUIRE(PostJson(c, v->Url(), {{"operation", "cancelCheckOut"}, {"objectId", pwc}})->status == 200);

    // A folder moved below the last level: it fits, what it holds would not.
    const std::string m = IdOf(Create(c, *v, docs, "m", true), *v);
    IdOf(Create(c, *v, m, name, true), *v);
    CheckRefused(PostJson(c, v->Url(), {{"operation", "move"}, {"objectId", m}, {"sourceFolderId", docs},
                                        {"targetFolderId", chain.back()}}),
                 "m");
    CHECK(GetJson(c, v->Url() + "/docs/m?cmisselector=object").is_object());  // not moved
    // A rename of a folder that would take what it holds beyond the limit.
    CheckRefused(PostJson(c, v->Url(), {{"operation", "update"}, {"objectId", chain[chain.size() - 1]},
                                        {"properties", {{v->Id("name"), name + "-longer"}}}}),
                 name);
    CheckFsckClean(f.dir());

    // deleteTree of the whole chain leaves nothing behind.
    auto del = PostJson(c, v->Url(), {{"operation", "deleteTree"}, {"objectId", chain[1]}});
    REQUIRE(del);
    CHECK_MESSAGE(del->status == 200, del->body);
    CheckFsckClean(f.dir());
  }
}

}  // namespace folio::testing
