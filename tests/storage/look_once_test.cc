// LookOnce (Rule H1, docs/STORAGE.md §10): within a scope, a thread's stats and
// directory listings through a ConflictCheckingFs are looked at once per path, until a change of this process is
// applied or the scope ends.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "storage/committer.h"
#include "storage/look_once.h"
#include "storage/mem_fs.h"
#include "support/fs_worlds.h"

using namespace folio;
using folio::testing::Put;

namespace {

// The size of `path` in `fs`; -1 when it does not exist.
int64_t SizeOf(Fs& fs, const std::string& path, bool identity = false) {
  auto st = identity ? fs.IdentityStat(path) : fs.Stat(path);
  if (!st.ok()) return st.status().Is(std::errc::no_such_file_or_directory) ? -1 : -2;
  return static_cast<int64_t>(st->size);
}

// Writes `bytes` at `path`, replacing what is there.
void Replace(storage::MemFs& mem, const std::string& path, const std::string& bytes) {
  (void)mem.Remove(path);
  Put(mem, path, bytes);
}

// The names listed in directory `dir` of `fs`, space-separated; "<missing>" when it is not
// there.
std::string Names(Fs& fs, const std::string& dir) {
  auto list = fs.List(dir);
  if (!list.ok()) return list.status().Is(std::errc::no_such_file_or_directory) ? "<missing>" : "<error>";
  std::vector<std::string> names;
  for (const DirEntry& e : *list) names.push_back(e.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

}  // namespace

TEST_CASE("LookOnce: a directory is listed once in a scope; a change applied or the scope's end list again") {
  storage::MemFs mem;
  storage::ConflictCheckingFs fs(mem);
  REQUIRE(mem.MakeDir("d").ok());
  Put(mem, "d/a", "1");
  {
    storage::LookOnce once;
    CHECK(Names(fs, "d") == "a");
    CHECK(Names(fs, "e") == "<missing>");
    Put(mem, "d/b", "2");
    REQUIRE(mem.MakeDir("e").ok());
    Put(mem, "e/c", "3");
    CHECK(Names(fs, "d") == "a");
    CHECK(Names(fs, "e") == "<missing>");
    CHECK(Names(mem, "d") == "a b");
    storage::LookOnce::ChangeApplied();
    CHECK(Names(fs, "d") == "a b");
    CHECK(Names(fs, "e") == "c");
    (void)mem.Remove("d/a");
    CHECK(Names(fs, "d") == "a b");
    storage::LookOnce::ForgetAll();
    CHECK(Names(fs, "d") == "b");
  }
  Put(mem, "d/z", "4");
  CHECK(Names(fs, "d") == "b z");
}

TEST_CASE("LookOnce: a file is stat'd once in a scope; a change applied, ForgetAll or the scope's end look again") {
  storage::MemFs mem;
  storage::ConflictCheckingFs fs(mem), other(mem);
  Put(mem, "a.json", "1");
  {
    storage::LookOnce once;
    CHECK(SizeOf(fs, "a.json") == 1);
    CHECK(SizeOf(fs, "a.json", /*identity=*/true) == 1);
    CHECK(SizeOf(fs, "b.json") == -1);
    CHECK(SizeOf(other, "a.json") == 1);
    // Edited and made behind the scope's back: it sees them as it first did.
    Replace(mem, "a.json", "22");
    Replace(mem, "b.json", "333");
    CHECK(SizeOf(fs, "a.json") == 1);
    CHECK(SizeOf(fs, "a.json", true) == 1);
    CHECK(SizeOf(fs, "b.json") == -1);
    CHECK(SizeOf(other, "a.json") == 1);
    // The raw Fs below is never kept.
    CHECK(SizeOf(mem, "a.json") == 2);
    // A change of this process applied: everything is looked at again.
    storage::LookOnce::ChangeApplied();
    CHECK(SizeOf(fs, "a.json") == 2);
    CHECK(SizeOf(fs, "b.json") == 3);
    Replace(mem, "a.json", "4444");
    CHECK(SizeOf(fs, "a.json") == 2);
    storage::LookOnce::ForgetAll();
    CHECK(SizeOf(fs, "a.json") == 4);
    CHECK(SizeOf(fs, "a.json", true) == 4);
  }
  // Out of the scope, every stat looks.
  Replace(mem, "a.json", "55555");
  CHECK(SizeOf(fs, "a.json") == 5);
  Replace(mem, "a.json", "1");
  CHECK(SizeOf(fs, "a.json") == 1);
}
