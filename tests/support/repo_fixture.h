// A data directory in a temp dir with domain "demo" and repository "main" (variant B),
// opened through the public Store API, plus small helpers tests share. MemRepoFixture
// is the same repository copied into a MemFs and opened there: a test written as
// TEST_CASE_TEMPLATE(..., F, RepoFixture, MemRepoFixture) runs the engine on both.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "folio/store.h"
#include "storage/mem_fs.h"
#include "support/temp_dir.h"

namespace folio::testing {

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Everything `file` has left to read.
inline std::string ReadAll(ReadableFile& file) {
  std::string out;
  char buf[65536];
  for (;;) {
    auto n = file.Read(buf, sizeof buf);
    REQUIRE(n.ok());
    if (*n == 0) return out;
    out.append(buf, *n);
  }
}

// The content of a document version or working copy; "<error>" if it cannot be opened.
inline std::string ContentOf(Repository& repo, const std::string& id) {
  auto s = repo.OpenContent(id);
  if (!s.ok()) return "<" + s.status().ToString() + ">";
  return ReadAll(*s->file);
}

// A new data directory at `dir` (not durable: for tests that kill processes, not the
// machine) holding domain "demo" with repository "main", open (the repository uses its
// store's Fs: the store outlives it, members being destroyed in reverse order).
struct DemoMain {
  std::unique_ptr<Store> store;
  std::shared_ptr<Repository> repo;
};
inline DemoMain MakeDemoMain(const std::string& dir) {
  auto store = Store::Open(dir, StoreOptions{.durable = false});
  REQUIRE(store.ok());
  REQUIRE((*store)->CreateDomain("demo", "").ok());
  RepositoryInfo info;
  info.repository_id = "main";
  REQUIRE((*store)->CreateRepository("demo", info).ok());
  auto repo = (*store)->GetRepository("demo", "main");
  REQUIRE(repo.ok());
  return DemoMain{std::move(*store), std::move(*repo)};
}

struct RepoFixture {
  TempDir dir;
  std::unique_ptr<Store> store;
  std::shared_ptr<Repository> repo;
  std::string root;

  // `version_list_max`: as StoreOptions (small, to have a few check-ins archive labels).
  explicit RepoFixture(std::string variant = "B", uint32_t version_list_max = 1000)
      : version_list_max_(version_list_max) {
    // No fsync: tests simulate kills, not power loss, and run much faster without it.
    auto s = Store::Open(dir.path(), StoreOptions{.durable = false, .version_list_max = version_list_max_});
    REQUIRE(s.ok());
    auto disk = OpenPosixFs(dir.path(), PosixFsOptions{.durable = false});
    REQUIRE(disk.ok());
    disk_ = std::move(*disk);
    fs_ = disk_.get();
    store = std::move(*s);
    REQUIRE(store->CreateDomain("demo", "test domain").ok());
    RepositoryInfo info;
    info.repository_id = "main";
    info.variant = variant;
    REQUIRE(store->CreateRepository("demo", info).ok());
    auto r = store->GetRepository("demo", "main");
    REQUIRE(r.ok());
    repo = *r;
    root = repo->info().root_folder_id;
  }

  // The repository as another process opens it (a second folio serve on the same data
  // directory): a Store of its own, nothing of this one's memory shared.
  DemoMain SecondProcess() const {
    auto s = Store::Open(dir.path(), StoreOptions{.durable = false});
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    auto r = (*s)->GetRepository("demo", "main");
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return DemoMain{std::move(*s), std::move(*r)};
  }

  // Closes this process's repository and store (checkpointed first: the commit log
  // empty) and opens the repository read-only, as `folio serve --read-only` would.
  DemoMain ReopenReadOnly() {
    REQUIRE(repo->Checkpoint().ok());
    repo.reset();
    store.reset();
    auto s = Store::Open(dir.path(), StoreOptions{.read_only = true, .durable = false, .create = false});
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    auto r = (*s)->GetRepository("demo", "main");
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return DemoMain{std::move(*s), std::move(*r)};
  }

  // The repository directory on disk.
  std::string RepoPath(const std::string& rel = "") const {
    return rel.empty() ? dir / "demo/main" : dir / ("demo/main/" + rel);
  }

  ObjectData Folder(const std::string& parent, const std::string& name) {
    NewObject o;
    o.name = name;
    auto r = repo->CreateFolder(parent, o, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  ObjectData Doc(const std::string& parent, const std::string& name, const std::string& bytes,
                 VersioningState state = VersioningState::kMajor) {
    NewObject o;
    o.name = name;
    auto r = repo->CreateDocument(parent, o, ContentSource::FromBytes(bytes, "text/plain"), state, "alice",
                                  WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  std::string Content(const std::string& id) {
    auto s = repo->OpenContent(id);
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    return ReadAll(*s->file);
  }

  // The data directory as the repository sees it (paths relative to the data directory).
  Fs& fs() { return *fs_; }
  // The bytes of the repository-relative file `rel` as a person would read them;
  // "<missing>" if there is no such file.
  std::string Visible(const std::string& rel) {
    auto bytes = ReadWholeFile(*fs_, "demo/main/" + rel);
    return bytes.ok() ? *bytes : "<missing>";
  }
  // True if the repository-relative `rel` exists (any kind of file).
  bool Has(const std::string& rel) { return Exists(*fs_, "demo/main/" + rel); }
  // Plants a symlink at the repository-relative `rel` pointing at `target`.
  virtual void Symlink(const std::string& rel, const std::string& target) {
    std::error_code ec;
    std::filesystem::create_symlink(target, RepoPath(rel), ec);
    REQUIRE_FALSE(ec);
  }
  // Closes the repository and its store, as a server that stops (its committer
  // checkpoints), runs `meanwhile` (what a person does while no Folio runs), and opens
  // them again: nothing of the first process's memory is left.
  void Restart(const std::function<void()>& meanwhile = {}) {
    repo.reset();
    store.reset();
    if (meanwhile) meanwhile();
    Reopen();
  }
  virtual ~RepoFixture() = default;

 protected:
  virtual void Reopen() {
    auto s = Store::Open(dir.path(),
                         StoreOptions{.durable = false, .create = false, .version_list_max = version_list_max_});
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    store = std::move(*s);
    auto r = store->GetRepository("demo", "main");
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    repo = *r;
  }

  uint32_t version_list_max_;
  std::unique_ptr<Fs> disk_;
  Fs* fs_ = nullptr;
};

// RepoFixture's repository, imported into memory after it was created and reopened on
// the MemFs `mem`; `store` and `dir` still name the disk copy, which `repo` no longer
// touches.
struct MemRepoFixture : RepoFixture {
  storage::MemFs mem;

  explicit MemRepoFixture(std::string variant = "B", uint32_t version_list_max = 1000)
      : RepoFixture(std::move(variant), version_list_max) {
    REQUIRE(repo->Checkpoint().ok());  // the commit log empty before the copy
    REQUIRE(storage::ImportTree(mem, dir.path()).ok());
    auto r = Repository::Open(mem, "demo/main", Options());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    repo = *r;
    fs_ = &mem;
  }
  // The repository (its committer checkpoints on close) goes before `mem`, which the
  // base's members would otherwise outlive.
  ~MemRepoFixture() override { repo.reset(); }
  void Symlink(const std::string& rel, const std::string& target) override {
    REQUIRE(mem.MakeSymlinkForTest("demo/main/" + rel, target).ok());
  }

 protected:
  RepositoryOptions Options() const { return RepositoryOptions{.version_list_max = version_list_max_}; }
  void Reopen() override {
    auto r = Repository::Open(mem, "demo/main", Options());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    repo = *r;
  }
};

}  // namespace folio::testing

// How doctest names a TEST_CASE_TEMPLATE's instance on these fixtures ("...<RepoFixture>").
TYPE_TO_STRING_AS("RepoFixture", folio::testing::RepoFixture);
TYPE_TO_STRING_AS("MemRepoFixture", folio::testing::MemRepoFixture);
