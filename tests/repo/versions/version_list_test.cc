// A long version history (repo/versions/version_list.h, docs/STORAGE.md §4): series.json lists
// at most the limit's number of labels, the older ones go into archive files, and
// every version stays what it was: listed in order, read by id, checked out from,
// deleted alone, given an ACL, and checked by fsck.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "folio/fsck.h"
#include "storage/json_file.h"
#include "support/next_version.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::MemRepoFixture;
using folio::testing::NextVersion;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;

namespace {

constexpr uint32_t kMax = 4;  // series.json lists at most 4 labels

// The labels of every version, oldest first, as getAllVersions gives them.
std::vector<std::string> Labels(RepoFixture& f, const std::string& series) {
  auto all = f.repo->GetAllVersions(series);
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  std::vector<std::string> out;
  for (const ObjectData& v : *all) {
    if (!v.is_pwc) out.push_back(v.version_label);
  }
  return out;
}

Json SeriesJson(RepoFixture& f, const std::string& name) {
  auto j = storage::ReadJsonFile(f.fs(), "demo/main/.folio/docs/" + name + "/series.json");
  REQUIRE_MESSAGE(j.ok(), j.status().ToString());
  return *j;
}

// fsck's findings other than notes, one line each.
std::vector<std::string> FsckErrors(Fs& fs) {
  auto report = RunFsck(fs, FsckOptions{});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  std::vector<std::string> out;
  for (const Finding& finding : report->findings) {
    if (finding.severity != Severity::kNote) out.push_back(finding.id + " " + finding.path + ": " + finding.message);
  }
  return out;
}

// "h.txt" with versions 1.0 (major), 1.1 ... 1.9 (minor), 2.0 (major), 2.1, 2.2 and the
// content "v<label>" each.
std::string LongHistory(RepoFixture& f) {
  ObjectData d = f.Doc(f.root, "h.txt", "v1.0");
  for (int i = 1; i <= 9; ++i) NextVersion(f, d.series_id, false, "v1." + std::to_string(i));
  NextVersion(f, d.series_id, true, "v2.0");
  NextVersion(f, d.series_id, false, "v2.1");
  NextVersion(f, d.series_id, false, "v2.2");
  return d.series_id;
}

const std::vector<std::string> kHistory = {"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6",
                                           "1.7", "1.8", "1.9", "2.0", "2.1", "2.2"};

}  // namespace

TEST_CASE_TEMPLATE("Version list: series.json stays bounded, every version stays reachable", F, RepoFixture,
                   MemRepoFixture) {
  F f("B", kMax);
  const std::string s = LongHistory(f);
  const Json series = SeriesJson(f, "h.txt");
  CHECK(series["versions"].size() <= kMax);
  CHECK(series["versions"].back() == "2.2");
  REQUIRE(series.contains("archived"));
  size_t archived = 0;
  for (const Json& a : series["archived"]) {
    archived += a["count"].get<size_t>();
    CHECK(f.Has(".folio/docs/h.txt/" + a["file"].get<std::string>()));
  }
  CHECK(archived + series["versions"].size() == kHistory.size());
  // The first archive, as a person reads it.
  auto first = storage::ReadJsonFile(f.fs(), "demo/main/.folio/docs/h.txt/versions-1.json");
  REQUIRE(first.ok());
  CHECK((*first)["seriesId"] == s);
  CHECK((*first)["versions"][0] == "1.0");

  CHECK(Labels(f, s) == kHistory);
  for (const std::string& label : kHistory) {
    CAPTURE(label);
    auto v = f.repo->GetObject(s + ";" + label);
    REQUIRE_MESSAGE(v.ok(), v.status().ToString());
    CHECK(v->version_label == label);
    CHECK(f.Content(v->id) == "v" + label);
    CHECK(v->properties["cmis:isLatestMajorVersion"] == (label == "2.0"));
    CHECK(v->properties["cmis:isLatestVersion"] == (label == "2.2"));
  }
  CHECK_FALSE(f.repo->GetObject(s + ";1.10").ok());  // in an archive's range, not a version
  CHECK_FALSE(f.repo->GetObject(s + ";0.5").ok());
  auto major = f.repo->GetLatestVersion(s, true);
  REQUIRE(major.ok());
  CHECK(major->version_label == "2.0");
  CHECK(FsckErrors(f.fs()).empty());

  // After a restart nothing of the first process's memory helps.
  f.Restart();
  CHECK(Labels(f, s) == kHistory);
  CHECK(f.Content(s + ";1.3") == "v1.3");
}

TEST_CASE_TEMPLATE("Version list: an archived version's properties are updated like a listed one's", F,
                   RepoFixture, MemRepoFixture) {
  F f("B", kMax);
  const std::string s = LongHistory(f);
  const Json before = SeriesJson(f, "h.txt");
  auto updated = f.repo->UpdateProperties(s + ";1.1", Json{{"cmis:description", "archived, updated"}}, "bob",
                                          WriteCheck::Trusted());
  REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
  CHECK(updated->version_label == "1.1");
  auto read = f.repo->GetObject(s + ";1.1");
  REQUIRE(read.ok());
  CHECK(read->properties["cmis:description"] == "archived, updated");
  CHECK(f.Content(s + ";1.1") == "v1.1");
  CHECK(SeriesJson(f, "h.txt") == before);  // no label moved
  CHECK(f.Visible("h.txt") == "v2.2");
  // A label inside an archive's range that is no version is still not found.
  auto none = f.repo->UpdateProperties(s + ";1.10", Json{{"cmis:description", "x"}}, "bob", WriteCheck::Trusted());
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(FsckErrors(f.fs()).empty());
}

TEST_CASE_TEMPLATE("Version list: the latest major version may be archived", F, RepoFixture, MemRepoFixture) {
  F f("B", kMax);
  ObjectData d = f.Doc(f.root, "m.txt", "v1.0");
  for (int i = 1; i <= 12; ++i) NextVersion(f, d.series_id, false, "v1." + std::to_string(i));
  const Json series = SeriesJson(f, "m.txt");
  REQUIRE(series.contains("archived"));
  CHECK(series["archived"][0]["latestMajor"] == "1.0");
  auto major = f.repo->GetLatestVersion(d.series_id, true);
  REQUIRE_MESSAGE(major.ok(), major.status().ToString());
  CHECK(major->version_label == "1.0");
  auto latest = f.repo->GetObject(d.series_id);
  REQUIRE(latest.ok());
  CHECK(latest->version_label == "1.12");
  CHECK(latest->properties["cmis:isLatestMajorVersion"] == false);
  auto one = f.repo->GetObject(d.series_id + ";1.0");
  REQUIRE(one.ok());
  CHECK(one->properties["cmis:isLatestMajorVersion"] == true);
  CHECK(FsckErrors(f.fs()).empty());
}

TEST_CASE_TEMPLATE("Version list: deleting single versions, archived or listed", F, RepoFixture, MemRepoFixture) {
  F f("B", kMax);
  const std::string s = LongHistory(f);
  std::vector<std::string> expected = kHistory;
  const auto remove = [&](const std::string& label) {
    CAPTURE(label);
    Status st = f.repo->Delete(s + ";" + label, false, WriteCheck::Trusted());
    REQUIRE_MESSAGE(st.ok(), st.ToString());
    expected.erase(std::find(expected.begin(), expected.end(), label));
    CHECK(Labels(f, s) == expected);
    CHECK_FALSE(f.repo->GetObject(s + ";" + label).ok());
    CHECK(FsckErrors(f.fs()) == std::vector<std::string>{});
  };
  // An archived version: its archive is rewritten without it.
  remove("1.1");
  CHECK(SeriesJson(f, "h.txt")["archived"][0]["first"] == "1.0");
  // The first archive's every label: the file goes.
  const Json before = SeriesJson(f, "h.txt");
  const Json first = before["archived"][0];
  {
    auto j = storage::ReadJsonFile(f.fs(), "demo/main/.folio/docs/h.txt/" + first["file"].get<std::string>());
    REQUIRE(j.ok());
    for (const Json& label : (*j)["versions"]) remove(label.get<std::string>());
  }
  CHECK_FALSE(f.Has(".folio/docs/h.txt/" + first["file"].get<std::string>()));
  CHECK(SeriesJson(f, "h.txt")["archived"].size() == before["archived"].size() - 1);
  // The listed ones, newest first: when none is left, the newest archive comes back
  // into series.json, and the visible file always holds the latest version.
  while (expected.size() > 1) {
    const std::string latest = expected.back();
    remove(latest);
    CHECK(f.Visible("h.txt") == "v" + expected.back());
    auto now = f.repo->GetObject(s);
    REQUIRE(now.ok());
    CHECK(now->version_label == expected.back());
  }
  const Json last = SeriesJson(f, "h.txt");
  CHECK_FALSE(last.contains("archived"));
  CHECK(last["versions"].size() == 1);
  auto files = f.fs().List("demo/main/.folio/docs/h.txt");
  REQUIRE(files.ok());
  for (const DirEntry& e : *files) CHECK_FALSE(e.name.starts_with("versions-"));
}

TEST_CASE("Version list: check-out of an archived version, and an ACL given to the series") {
  RepoFixture f("B", kMax);
  const std::string s = LongHistory(f);
  auto pwc = f.repo->CheckOut(s + ";1.2", "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  CHECK(f.Content(pwc->id) == "v1.2");
  // The version the working copy was made from cannot be deleted meanwhile.
  CHECK(f.repo->Delete(s + ";1.2", false, WriteCheck::Trusted()).kind() == ErrorKind::kVersioning);
  CheckInRequest req;
  req.add_aces = {Ace{"carol", {"cmis:read"}}};
  auto v = f.repo->CheckIn(pwc->id, req, "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(v.ok(), v.status().ToString());
  CHECK(v->version_label == "3.0");
  CHECK(f.Content(v->id) == "v1.2");
  // A check-in's ACEs reach every version, archived ones too.
  for (const std::string& label : kHistory) {
    CAPTURE(label);
    auto old = f.repo->GetObject(s + ";" + label);
    REQUIRE(old.ok());
    CHECK(std::any_of(old->acl.begin(), old->acl.end(), [](const Ace& a) { return a.principal == "carol"; }));
  }
  CHECK(f.repo->ApplyAcl(s, {}, {Ace{"carol", {"cmis:read"}}}, WriteCheck::Trusted()).ok());
  auto oldest = f.repo->GetObject(s + ";1.0");
  REQUIRE(oldest.ok());
  CHECK(std::none_of(oldest->acl.begin(), oldest->acl.end(), [](const Ace& a) { return a.principal == "carol"; }));
  CHECK(FsckErrors(f.fs()).empty());
}

TEST_CASE("Version list: a series.json of an earlier Folio, listing every label, is read and archived") {
  RepoFixture f("B", 1000);
  const std::string s = LongHistory(f);
  CHECK_FALSE(SeriesJson(f, "h.txt").contains("archived"));
  CHECK(Labels(f, s) == kHistory);
  // Another process with a small limit: the next check-in archives the oldest half.
  f.repo.reset();
  f.store.reset();
  auto small = Repository::Open(f.fs(), "demo/main", RepositoryOptions{.version_list_max = kMax});
  REQUIRE(small.ok());
  auto pwc = (*small)->CheckOut(s, "bob", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  REQUIRE((*small)->CheckIn(pwc->id, CheckInRequest{}, "bob", WriteCheck::Trusted()).ok());
  auto all = (*small)->GetAllVersions(s);
  REQUIRE(all.ok());
  CHECK(all->size() == kHistory.size() + 1);
  small->reset();
  const Json series = SeriesJson(f, "h.txt");
  REQUIRE(series.contains("archived"));
  CHECK(series["versions"].size() <= kMax);
  CHECK(FsckErrors(f.fs()).empty());
}

TEST_CASE("Version list: fsck reports a missing or altered archive, and an archive no series describes") {
  RepoFixture f("B", kMax);
  const std::string s = LongHistory(f);
  f.repo.reset();
  f.store.reset();
  const std::string dir = f.RepoPath(".folio/docs/h.txt");
  const auto has = [](const std::vector<std::string>& errors, const std::string& what) {
    return std::any_of(errors.begin(), errors.end(), [&](const std::string& e) { return e.find(what) != e.npos; });
  };
  SUBCASE("an archive gone: reported, and its versions' files are not taken for unlisted ones") {
    std::filesystem::rename(dir + "/versions-1.json", f.dir / "versions-1.json");
    const auto errors = FsckErrors(f.fs());
    CHECK(has(errors, "version-labels-invalid"));
    CHECK(has(errors, "missing archive"));
    CHECK_FALSE(has(errors, "version-file-unlisted"));
  }
  SUBCASE("an archive edited to list other labels") {
    WriteFile(dir + "/versions-1.json", "{\"seriesId\": \"" + s + "\", \"versions\": [\"1.0\"]}\n");
    CHECK(has(FsckErrors(f.fs()), "does not list"));
  }
  SUBCASE("an archive of another series") {
    WriteFile(dir + "/versions-1.json", R"({"seriesId": "dother", "versions": ["1.0", "1.1"]})");
    CHECK(has(FsckErrors(f.fs()), "version-labels-invalid"));
  }
  SUBCASE("an archive series.json does not describe: unlisted, moved to lost+found by a repair") {
    WriteFile(dir + "/versions-77.json", R"({"seriesId": "x", "versions": ["0.1"]})");
    CHECK(has(FsckErrors(f.fs()), "unlisted archive"));
    auto repaired = RunFsck(f.fs(), FsckOptions{.repair = true});
    REQUIRE(repaired.ok());
    CHECK_FALSE(std::filesystem::exists(dir + "/versions-77.json"));
    CHECK(FsckErrors(f.fs()).empty());
  }
}
