// A data directory in a temp dir with domain "demo" and repository "main" (variant B),
// opened through the public Store API, plus small helpers tests share.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "folio/store.h"
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

struct RepoFixture {
  TempDir dir;
  std::unique_ptr<Store> store;
  std::shared_ptr<Repository> repo;
  std::string root;

  explicit RepoFixture(std::string variant = "B") {
    // No fsync: tests simulate kills, not power loss, and run much faster without it.
    auto s = Store::Open(dir.path(), StoreOptions{.durable = false});
    REQUIRE(s.ok());
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

  // The repository directory on disk.
  std::string RepoPath(const std::string& rel = "") const {
    return rel.empty() ? dir / "demo/main" : dir / ("demo/main/" + rel);
  }

  ObjectData Folder(const std::string& parent, const std::string& name) {
    NewObject o;
    o.name = name;
    auto r = repo->CreateFolder(parent, o, "alice");
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  ObjectData Doc(const std::string& parent, const std::string& name, const std::string& bytes,
                 VersioningState state = VersioningState::kMajor) {
    NewObject o;
    o.name = name;
    auto r = repo->CreateDocument(parent, o, ContentSource::FromBytes(bytes, "text/plain"), state, "alice");
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  std::string Content(const std::string& id) {
    auto s = repo->OpenContent(id);
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    return ReadAll(*s->file);
  }

};

}  // namespace folio::testing
