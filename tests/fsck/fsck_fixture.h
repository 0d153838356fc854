// Shared by the fsck tests: a repository with one of everything, built through the
// engine, and helpers that run fsck and look for findings.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>

#include "folio/fsck.h"
#include "support/repo_fixture.h"

namespace folio::testing {

// demo/main holds:
//   reports/                folder
//   reports/q3.txt          versions 1.0 "v1", 1.1 "v1.1", 2.0 "version two"
//   reports/draft.md        1.0 "draft", checked out by bob, working copy "draft wip"
//   reports/new.txt         created checked out: no version, working copy "fresh"
//   reports/ticket          item of the custom type my:ticket
//   reports/2024/old.txt    moved here with its folder from archive/ (stale index paths)
//   archive/                folder
//   notes.txt               minor version 0.1 "notes"
//   contract.pdf            custom type acme:contract, no content
//   a relationship "cites" from q3.txt to notes.txt
// Built without fsync (fsck's own repairs are durable): the suite stays fast.
struct FsckFixture : RepoFixture {
  ObjectData reports, archive, q3, draft, draft_pwc, fresh_pwc, notes, contract, ticket, cites, old;

  FsckFixture() {
    Json contract_type = {
        {"id", "acme:contract"},
        {"parentId", "cmis:document"},
        {"propertyDefinitions",
         {{"acme:amount", {{"propertyType", "decimal"}, {"cardinality", "single"}, {"updatability", "readwrite"}}}}}};
    REQUIRE(repo->CreateType(contract_type, WriteCheck::Trusted()).ok());
    REQUIRE(repo->CreateType(Json{{"id", "my:ticket"}, {"parentId", "cmis:item"}}, WriteCheck::Trusted()).ok());
    reports = Folder(root, "reports");
    archive = Folder(root, "archive");
    q3 = Doc(reports.id, "q3.txt", "v1");
    CheckIn(q3.series_id, false, "v1.1");
    CheckIn(q3.series_id, true, "version two");
    draft = Doc(reports.id, "draft.md", "draft");
    auto pwc = repo->CheckOut(draft.series_id, "bob", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    REQUIRE(repo->SetContent(pwc->id, ContentSource::FromBytes("draft wip"), true, "bob", WriteCheck::Trusted()).ok());
    draft_pwc = *pwc;
    fresh_pwc = Doc(reports.id, "new.txt", "fresh", VersioningState::kCheckedOut);
    notes = Doc(root, "notes.txt", "notes", VersioningState::kMinor);
    NewObject c;
    c.name = "contract.pdf";
    c.type_id = "acme:contract";
    c.properties = Json{{"acme:amount", "12.5"}};
    auto made = repo->CreateDocument(root, c, std::nullopt, VersioningState::kMajor, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(made.ok(), made.status().ToString());
    contract = *made;
    NewObject t;
    t.name = "ticket";
    t.type_id = "my:ticket";
    auto item = repo->CreateItem(reports.id, t, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(item.ok(), item.status().ToString());
    ticket = *item;
    NewObject r;
    r.name = "cites";
    r.properties = Json{{"cmis:sourceId", q3.series_id}, {"cmis:targetId", notes.series_id}};
    auto rel = repo->CreateRelationship(r, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(rel.ok(), rel.status().ToString());
    cites = *rel;
    ObjectData year = Folder(archive.id, "2024");
    old = Doc(year.id, "old.txt", "old");
    REQUIRE(repo->Move(year.id, reports.id, archive.id, "alice", WriteCheck::Trusted()).ok());
  }

  void CheckIn(const std::string& series, bool major, const std::string& bytes) {
    auto pwc = repo->CheckOut(series, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
    CheckInRequest req;
    req.major = major;
    req.content = ContentSource::FromBytes(bytes, "text/plain");
    auto v = repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(v.ok(), v.status().ToString());
  }

  // Data-directory-relative path of `rel` in the repository, as findings name it.
  static std::string Data(const std::string& rel = "") { return rel.empty() ? "demo/main" : "demo/main/" + rel; }
  // Absolute path of a data-directory-relative path.
  std::string Abs(const std::string& data_rel) const { return dir / data_rel; }
  std::string Marker(const std::string& series_id) const { return Data(".folio/checkedout/" + series_id); }
  std::string IndexEntry(const std::string& id) const {
    return Data(".folio/index/" + id.substr(id.size() - 2) + "/" + id + ".json");
  }
};

// demo/main of the data directory `dir`, opened afresh (as another process would).
inline DemoMain OpenDemoMain(const std::string& dir) {
  StoreOptions options;
  options.create = false;
  options.durable = false;
  auto store = Store::Open(dir, options);
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  auto repo = (*store)->GetRepository("demo", "main");
  REQUIRE_MESSAGE(repo.ok(), repo.status().ToString());
  return DemoMain{std::move(*store), std::move(*repo)};
}

inline std::string Dump(const FsckReport& r) {
  std::ostringstream out;
  for (const Finding& f : r.findings) {
    out << SeverityName(f.severity) << " " << f.id << " " << f.path << ": " << f.message;
    if (!f.repair.empty()) out << " [" << f.repair << "]";
    out << "\n";
  }
  return out.str();
}

inline FsckReport RunCheck(const std::string& dir) {
  auto r = RunFsck(dir, FsckOptions{});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

inline FsckReport RunRepair(const std::string& dir) {
  auto r = RunFsck(dir, FsckOptions{.repair = true});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

inline const Finding* Find(const FsckReport& r, const std::string& id, const std::string& path) {
  for (const Finding& f : r.findings) {
    if (f.id == id && f.path == path) return &f;
  }
  return nullptr;
}

// `id` at `path` is reported; a repair fixes it (saying how) and leaves nothing else
// to report; a following check is clean. Returns what the repair said.
inline std::string ExpectRepaired(const std::string& dir, const std::string& id, const std::string& path) {
  const FsckReport before = RunCheck(dir);
  const Finding* found = Find(before, id, path);
  CHECK_MESSAGE(found != nullptr, "expected " << id << " at " << path << ", got:\n" << Dump(before));
  const FsckReport repaired = RunRepair(dir);
  CHECK_MESSAGE(repaired.problems() == 0, Dump(repaired));
  const Finding* fixed = Find(repaired, id, path);
  CHECK_MESSAGE((fixed != nullptr && !fixed->repair.empty()), Dump(repaired));
  const FsckReport after = RunCheck(dir);
  CHECK_MESSAGE(after.clean(), Dump(after));
  CHECK_MESSAGE(Find(after, id, path) == nullptr, Dump(after));
  return fixed == nullptr ? "" : fixed->repair;
}

// `id` at `path` is reported and no repair can fix it: it is still there after one.
inline void ExpectUnrepairable(const std::string& dir, const std::string& id, const std::string& path) {
  const FsckReport before = RunCheck(dir);
  CHECK_MESSAGE(Find(before, id, path) != nullptr, "expected " << id << " at " << path << ", got:\n" << Dump(before));
  CHECK_FALSE(before.clean());
  const FsckReport repaired = RunRepair(dir);
  const Finding* left = Find(repaired, id, path);
  CHECK_MESSAGE((left != nullptr && left->repair.empty()), Dump(repaired));
  CHECK(repaired.problems() >= 1);
  CHECK_MESSAGE(Find(RunCheck(dir), id, path) != nullptr, Dump(RunCheck(dir)));
}

// The content of the file whose path in lost+found ends with `suffix` ("" if none).
inline std::string InLostFound(const RepoFixture& f, const std::string& suffix) {
  const std::filesystem::path lost = f.RepoPath(".folio/lost+found");
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(lost, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string p = it->path().string();
    if (it->is_regular_file() && p.size() >= suffix.size() &&
        p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return ReadFile(p);
    }
  }
  return "";
}

// Rewrites the JSON file at absolute `path` with `edit` applied.
template <typename Edit>
void EditJson(const std::string& path, Edit edit) {
  Json j = Json::parse(ReadFile(path));
  edit(j);
  WriteFile(path, j.dump(2) + "\n");
}

inline void SetMtimeAgo(const std::string& path, std::chrono::seconds ago) {
  std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() - ago);
}

}  // namespace folio::testing
