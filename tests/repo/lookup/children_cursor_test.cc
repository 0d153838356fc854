// Repository::OpenChildren: a page of a folder's children handed out one at a time, by
// name or date, each way, with and without a filter that leaves children out before
// paging (the children a caller may not read).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;
namespace fs = std::filesystem;

namespace {

struct Walked {
  std::vector<std::string> names;
  uint64_t total = 0;
  bool has_more = false;
};

Walked Walk(RepoFixture& f, const std::string& folder_id, uint64_t skip, uint64_t max, ChildOrder order = {},
            Repository::ChildFilter admit = {}) {
  auto cursor = f.repo->OpenChildren(folder_id, skip, max, order, std::move(admit));
  REQUIRE_MESSAGE(cursor.ok(), cursor.status().ToString());
  Walked w;
  for (;;) {
    auto child = (*cursor)->Next();
    REQUIRE_MESSAGE(child.ok(), child.status().ToString());
    if (!*child) break;
    w.names.push_back((*child)->name);
  }
  w.total = (*cursor)->total();
  w.has_more = (*cursor)->has_more();
  CHECK((*cursor)->damaged().empty());
  return w;
}

std::string Name(int i) {
  char name[16];
  std::snprintf(name, sizeof name, "c%02d.txt", i);
  return name;
}

// `count` files by hand in folder "many", c00.txt first; the creation date (the file's
// mtime) runs the other way: c00.txt is the newest.
std::string ManyFiles(RepoFixture& f, int count) {
  fs::create_directories(f.RepoPath("many"));
  const auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < count; ++i) {
    const std::string path = f.RepoPath("many/" + Name(i));
    WriteFile(path, "x");
    fs::last_write_time(path, now - std::chrono::minutes(i + 1));
  }
  auto folder = f.repo->GetObjectByPath("many");
  REQUIRE(folder.ok());
  return folder->id;
}

std::vector<std::string> Names(const std::vector<int>& numbers) {
  std::vector<std::string> out;
  for (int i : numbers) out.push_back(Name(i));
  return out;
}

std::vector<int> Range(int from, int to, int step = 1) {
  std::vector<int> out;
  for (int i = from; step > 0 ? i < to : i > to; i += step) out.push_back(i);
  return out;
}

}  // namespace

TEST_CASE("Children cursor: pages by name, each way, count the folder and say what is left") {
  RepoFixture f;
  const std::string folder = ManyFiles(f, 50);
  Walked first = Walk(f, folder, 0, 20);
  CHECK(first.names == Names(Range(0, 20)));
  CHECK(first.total == 50);
  CHECK(first.has_more);
  Walked last = Walk(f, folder, 40, 20);
  CHECK(last.names == Names(Range(40, 50)));
  CHECK_FALSE(last.has_more);
  Walked exact = Walk(f, folder, 30, 20);
  CHECK(exact.names.size() == 20);
  CHECK_FALSE(exact.has_more);
  Walked back = Walk(f, folder, 5, 10, ChildOrder{ChildOrderKey::kName, true});
  CHECK(back.names == Names(Range(44, 34, -1)));
  CHECK(back.has_more);
  Walked past = Walk(f, folder, 80, 10);
  CHECK(past.names.empty());
  CHECK(past.total == 50);
  CHECK_FALSE(past.has_more);
  Walked none = Walk(f, folder, 0, 0);
  CHECK(none.names.empty());
  CHECK(none.has_more);
  // The same as GetChildren's page, which collects a cursor.
  auto page = f.repo->GetChildren(folder, 40, 20);
  REQUIRE(page.ok());
  CHECK(page->objects.size() == 10);
  CHECK(page->total == 50);
}

TEST_CASE("Children cursor: by date, each way, equal dates by name") {
  RepoFixture f;
  const std::string folder = ManyFiles(f, 30);
  const ChildOrder oldest_first{ChildOrderKey::kCreationDate, false};
  Walked oldest = Walk(f, folder, 0, 10, oldest_first);
  CHECK(oldest.names == Names(Range(29, 19, -1)));
  CHECK(oldest.total == 30);
  CHECK(oldest.has_more);
  Walked newest = Walk(f, folder, 25, 10, ChildOrder{ChildOrderKey::kLastModificationDate, true});
  CHECK(newest.names == Names(Range(25, 30)));
  CHECK_FALSE(newest.has_more);
  SUBCASE("equal dates") {
    const auto when = fs::file_time_type::clock::now() - std::chrono::hours(5);
    fs::create_directories(f.RepoPath("same"));
    for (int i = 0; i < 12; ++i) {
      WriteFile(f.RepoPath("same/" + Name(i)), "x");
      fs::last_write_time(f.RepoPath("same/" + Name(i)), when);
    }
    auto same = f.repo->GetObjectByPath("same");
    REQUIRE(same.ok());
    CHECK(Walk(f, same->id, 2, 4, oldest_first).names == Names(Range(2, 6)));
    CHECK(Walk(f, same->id, 2, 4, ChildOrder{ChildOrderKey::kCreationDate, true}).names == Names(Range(2, 6)));
  }
}

TEST_CASE("Children cursor: a filter leaves children out before paging, and out of the count") {
  RepoFixture f;
  const std::string folder = ManyFiles(f, 50);
  // Every third child: c00, c03, ..., c48 (17 of them).
  const Repository::ChildFilter thirds = [](const ObjectData& o) { return std::stoi(o.name.substr(1, 2)) % 3 == 0; };
  Walked first = Walk(f, folder, 0, 5, {}, thirds);
  CHECK(first.names == Names(Range(0, 15, 3)));
  CHECK(first.total == 17);
  CHECK(first.has_more);
  Walked middle = Walk(f, folder, 5, 5, {}, thirds);
  CHECK(middle.names == Names(Range(15, 30, 3)));
  CHECK(middle.has_more);
  Walked last = Walk(f, folder, 15, 5, {}, thirds);
  CHECK(last.names == Names({45, 48}));
  CHECK(last.total == 17);
  CHECK_FALSE(last.has_more);
  Walked exact = Walk(f, folder, 12, 5, {}, thirds);
  CHECK(exact.names.size() == 5);
  CHECK_FALSE(exact.has_more);
  Walked back = Walk(f, folder, 1, 3, ChildOrder{ChildOrderKey::kName, true}, thirds);
  CHECK(back.names == Names({45, 42, 39}));
  CHECK(back.has_more);
  Walked by_date = Walk(f, folder, 0, 4, ChildOrder{ChildOrderKey::kCreationDate, false}, thirds);
  CHECK(by_date.names == Names({48, 45, 42, 39}));
  CHECK(by_date.total == 17);
  CHECK(by_date.has_more);
  Walked nothing = Walk(f, folder, 0, 10, {}, [](const ObjectData&) { return false; });
  CHECK(nothing.names.empty());
  CHECK(nothing.total == 0);
  CHECK_FALSE(nothing.has_more);
}

TEST_CASE("Children cursor: errors come before any child") {
  RepoFixture f;
  auto missing = f.repo->OpenChildren("f0000000000000000", 0, 10);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().kind() == ErrorKind::kObjectNotFound);
  WriteFile(f.RepoPath("a.txt"), "x");
  auto doc = f.repo->GetObjectByPath("a.txt");
  REQUIRE(doc.ok());
  auto not_folder = f.repo->OpenChildren(doc->id, 0, 10);
  REQUIRE_FALSE(not_folder.ok());
  CHECK(not_folder.status().kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("Children cursor: files edited or removed by hand are seen by the listing, in folders with and without series") {
  // A listing takes each document's file beneath the folder's opened directory, and
  // skips the look for a series.json in a folder without a docs directory: neither may
  // hide an edit by hand.
  RepoFixture f;
  const ObjectData mixed = f.Folder(f.root, "mixed");  // a document of Folio's, and a file added by hand
  f.Doc(mixed.id, "folio.txt", "made by Folio");
  WriteFile(f.RepoPath("mixed/hand.txt"), "added by hand");
  const ObjectData adopted = f.Folder(f.root, "adopted");  // files added by hand only
  WriteFile(f.RepoPath("adopted/one.txt"), "one");
  WriteFile(f.RepoPath("adopted/two.txt"), "two");
  REQUIRE(f.repo->GetChildren(mixed.id, 0, 10).ok());
  REQUIRE(f.repo->GetChildren(adopted.id, 0, 10).ok());
  CHECK_FALSE(fs::exists(f.RepoPath("adopted/.folio/docs")));
  const auto rewrite = [&](const std::string& path, const std::string& bytes) {
    fs::remove(f.RepoPath(path));  // a new inode, as editors do
    WriteFile(f.RepoPath(path), bytes);
  };
  rewrite("mixed/folio.txt", "edited by hand: longer");
  rewrite("mixed/hand.txt", "edited by hand too");
  rewrite("adopted/one.txt", "one, edited");
  fs::remove(f.RepoPath("adopted/two.txt"));
  const auto lengths = [&](const std::string& folder_id) {
    auto page = f.repo->GetChildren(folder_id, 0, 10);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    std::map<std::string, int64_t> out;
    for (const ObjectData& o : page->objects) out[o.name] = o.properties["cmis:contentStreamLength"].get<int64_t>();
    return out;
  };
  CHECK(lengths(mixed.id) == std::map<std::string, int64_t>{{"folio.txt", 22}, {"hand.txt", 18}});
  CHECK(lengths(adopted.id) == std::map<std::string, int64_t>{{"one.txt", 11}});
  CHECK(f.Content(f.repo->GetObjectByPath("adopted/one.txt")->id) == "one, edited");
}
