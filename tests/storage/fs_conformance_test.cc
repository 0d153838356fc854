// The Fs contract, written once and run on PosixFs (a temp dir), its HoldDirectories()
// view, MemFs, and PosixFs taking the fallbacks of a filesystem without RENAME_NOREPLACE,
// RENAME_EXCHANGE, openat2, flock, hard links (FALLBACK_WORLDS): every method,
// its results and the error causes callers rely on. A MemFs that passes behaves as the
// disk does for everything the engine can ask.
#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>

#include "folio/fs.h"
#include "support/fs_worlds.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::Get;
using folio::testing::kSwaps;
using folio::testing::MemWorld;
using folio::testing::PosixFallbackHeldWorld;
using folio::testing::PosixFallbackWorld;
using folio::testing::PosixHeldWorld;
using folio::testing::PosixNoLinksWorld;
using folio::testing::PosixWorld;
using folio::testing::Put;

TYPE_TO_STRING(PosixWorld);
TYPE_TO_STRING(PosixHeldWorld);
TYPE_TO_STRING(MemWorld);
TYPE_TO_STRING(PosixFallbackWorld);
TYPE_TO_STRING(PosixNoLinksWorld);
TYPE_TO_STRING(PosixFallbackHeldWorld);

namespace {

// `expr` (a Status or Result) failed with kStorage, cause `err`, naming 'culprit'.
#define CHECK_FAILS(expr, err, culprit)                                                  \
  do {                                                                                   \
    const ::folio::Status s_ = ::folio::internal::AsStatus((expr));                      \
    CHECK_MESSAGE(s_.kind() == ::folio::ErrorKind::kStorage, s_.ToString());             \
    CHECK_MESSAGE(s_.Is(err), s_.ToString());                                            \
    CHECK_MESSAGE(Contains(s_.message(), std::string("'") + (culprit) + "'"), s_.ToString()); \
  } while (0)

#define CHECK_INVALID(expr)                                                       \
  do {                                                                            \
    const ::folio::Status s_ = ::folio::internal::AsStatus((expr));               \
    CHECK_MESSAGE(s_.kind() == ::folio::ErrorKind::kInvalidArgument, s_.ToString()); \
  } while (0)

std::set<std::string> Names(Fs& fs, const std::string& dir) {
  auto list = fs.List(dir);
  REQUIRE_MESSAGE(list.ok(), list.status().ToString());
  std::set<std::string> out;
  for (const DirEntry& e : *list) out.insert(e.name);
  return out;
}

uint64_t InodeOf(Fs& fs, const std::string& path) {
  auto st = fs.Stat(path);
  REQUIRE_MESSAGE(st.ok(), st.status().ToString());
  return st->inode;
}

constexpr std::errc kNoEnt = std::errc::no_such_file_or_directory;
constexpr std::errc kExists = std::errc::file_exists;
constexpr std::errc kNotDir = std::errc::not_a_directory;
constexpr std::errc kIsDir = std::errc::is_a_directory;
constexpr std::errc kLoop = std::errc::too_many_symbolic_link_levels;
constexpr std::errc kNotEmpty = std::errc::directory_not_empty;

}  // namespace

TEST_CASE_TEMPLATE("Fs: every method refuses paths that are not normal and relative", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("a").ok());
  for (const std::string& bad : std::vector<std::string>{"/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/.", "a/", "/", "a/..",
                          std::string("a\0b", 3)}) {
    CAPTURE(bad);
    CHECK_INVALID(fs.Open(bad));
    CHECK_INVALID(fs.OpenDirectory(bad));
    CHECK_INVALID(fs.CreateNew(bad));
    CHECK_INVALID(fs.Rename(bad, "a/x"));
    CHECK_INVALID(fs.Rename("a", bad));
    CHECK_INVALID(fs.RenameNoReplace(bad, "a/x"));
    CHECK_INVALID(fs.Exchange(bad, "a"));
    CHECK_INVALID(fs.Exchange("a", bad));
    CHECK_INVALID(fs.OpenToRewrite(bad));
    CHECK_INVALID(fs.SyncDir(bad));
    CHECK_INVALID(fs.List(bad));
    CHECK_INVALID(fs.MakeDir(bad));
    CHECK_INVALID(fs.Remove(bad));
    CHECK_INVALID(fs.RemoveTree(bad));
    CHECK_INVALID(fs.Stat(bad));
    CHECK_INVALID(fs.IdentityStat(bad));
    CHECK_INVALID(fs.Lock(bad));
    CHECK_INVALID(fs.Link(bad, "a/x"));
    CHECK_INVALID(fs.Link("a", bad));
    CHECK_INVALID(fs.OpenRandomAccess(bad));
  }
  // The root itself cannot be removed, renamed or linked.
  CHECK_INVALID(fs.Remove(""));
  CHECK_INVALID(fs.RemoveTree(""));
  CHECK_INVALID(fs.Rename("", "b"));
  CHECK_INVALID(fs.Rename("a", ""));
  CHECK_INVALID(fs.RenameNoReplace("", "b"));
  CHECK_INVALID(fs.Exchange("", "a"));
  CHECK_INVALID(fs.Link("", "b"));
  CHECK(Names(fs, "") == std::set<std::string>{"a"});
}

TEST_CASE_TEMPLATE("Fs: Open reads a file and refuses everything else with its cause", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "d/f", "hello world");
  w.Symlink("link", "d/f");
  w.Symlink("dlink", "d");
  w.Special("fifo");

  auto f = fs.Open("d/f");
  REQUIRE(f.ok());
  CHECK((*f)->size() == 11);
  char buf[5];
  auto n = (*f)->Read(buf, 5);
  REQUIRE(n.ok());
  CHECK(std::string(buf, *n) == "hello");
  REQUIRE((*f)->Seek(6).ok());
  CHECK(folio::testing::ReadAll(**f) == "world");
  auto st = (*f)->Stat();
  REQUIRE(st.ok());
  CHECK(st->type == FileType::kFile);
  CHECK(st->size == 11);
  CHECK(st->inode == InodeOf(fs, "d/f"));

  CHECK_FAILS(fs.Open("d/missing"), kNoEnt, "d/missing");
  CHECK_FAILS(fs.Open("nodir/f"), kNoEnt, "nodir/f");
  CHECK_FAILS(fs.Open("d"), kIsDir, "d");
  CHECK_FAILS(fs.Open(""), kIsDir, "");
  CHECK_FAILS(fs.Open("fifo"), std::errc::invalid_argument, "fifo");
  CHECK_FAILS(fs.Open("link"), kLoop, "link");
  CHECK_FAILS(fs.Open("dlink/f"), kLoop, "dlink/f");
  CHECK_FAILS(fs.Open("d/f/x"), kNotDir, "d/f/x");
  CHECK_FAILS(fs.CreateNew(""), kExists, "");
  CHECK_FAILS(fs.Lock(""), kIsDir, "");
  CHECK_FAILS(fs.OpenRandomAccess(""), kIsDir, "");
}

TEST_CASE_TEMPLATE("Fs: an open file stays readable after its name is removed or replaced", W, PosixWorld,
                   PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "f", "old bytes");
  auto f = fs.Open("f");
  REQUIRE(f.ok());
  const uint64_t ino = InodeOf(fs, "f");
  Put(fs, "g", "new");
  REQUIRE(fs.Rename("g", "f").ok());
  CHECK(Get(fs, "f") == "new");
  CHECK(folio::testing::ReadAll(**f) == "old bytes");
  auto st = (*f)->Stat();
  REQUIRE(st.ok());
  CHECK(st->inode == ino);
  CHECK(InodeOf(fs, "f") != ino);
}

TEST_CASE_TEMPLATE("Fs: OpenDirectory reads files by name as Open would", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  REQUIRE(fs.MakeDir("d/sub").ok());
  Put(fs, "d/a", "A");
  Put(fs, "d/empty", "");
  w.Symlink("d/link", "a");
  w.Special("d/fifo");
  Put(fs, "file", "x");
  w.Symlink("dlink", "d");

  auto d = fs.OpenDirectory("d");
  REQUIRE(d.ok());
  std::string out = "junk";
  REQUIRE((*d)->ReadFile("a", out).ok());
  CHECK(out == "A");
  REQUIRE((*d)->ReadFile("empty", out).ok());
  CHECK(out.empty());
  CHECK_FAILS((*d)->ReadFile("missing", out), kNoEnt, "d/missing");
  CHECK_FAILS((*d)->ReadFile("link", out), kLoop, "d/link");
  CHECK_FAILS((*d)->ReadFile("sub", out), kIsDir, "d/sub");
  CHECK_FAILS((*d)->ReadFile("fifo", out), std::errc::invalid_argument, "d/fifo");
  for (const std::string& bad : std::vector<std::string>{"", ".", "..", "sub/x", std::string("a\0", 2)}) {
    CAPTURE(bad);
    CHECK_INVALID((*d)->ReadFile(bad, out));
  }
  // The directory opened is read, whatever its path names now.
  REQUIRE(fs.Rename("d", "moved").ok());
  REQUIRE((*d)->ReadFile("a", out).ok());
  CHECK(out == "A");

  auto root = fs.OpenDirectory("");
  REQUIRE(root.ok());
  REQUIRE((*root)->ReadFile("file", out).ok());
  CHECK(out == "x");

  CHECK_FAILS(fs.OpenDirectory("file"), kNotDir, "file");
  CHECK_FAILS(fs.OpenDirectory("missing"), kNoEnt, "missing");
  CHECK_FAILS(fs.OpenDirectory("dlink"), kLoop, "dlink");
}

TEST_CASE_TEMPLATE("Fs: a directory's IdentityStat of a file is the Fs's, beneath it, not following a symlink", W,
                   PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  REQUIRE(fs.MakeDir("d/sub").ok());
  Put(fs, "d/a", "AAA");
  w.Symlink("d/link", "a");

  auto d = fs.OpenDirectory("d");
  REQUIRE(d.ok());
  auto by_dir = (*d)->IdentityStat("a");
  auto by_path = fs.IdentityStat("d/a");
  REQUIRE(by_dir.ok());
  REQUIRE(by_path.ok());
  CHECK(by_dir->type == FileType::kFile);
  CHECK(by_dir->size == 3);
  CHECK(folio::SameFileState(*by_dir, *by_path));
  CHECK(by_dir->ctime_ns == by_path->ctime_ns);
  auto link = (*d)->IdentityStat("link");
  REQUIRE(link.ok());
  CHECK(link->type == FileType::kSymlink);
  auto sub = (*d)->IdentityStat("sub");
  REQUIRE(sub.ok());
  CHECK(sub->type == FileType::kDirectory);
  CHECK_FAILS((*d)->IdentityStat("missing"), kNoEnt, "d/missing");
  for (const std::string& bad : std::vector<std::string>{"", ".", "..", "sub/x", std::string("a\0", 2)}) {
    CAPTURE(bad);
    CHECK_INVALID((*d)->IdentityStat(bad));
  }
  // A change of the file shows, as it does to Fs::IdentityStat.
  Put(fs, "d/b", "longer bytes");
  REQUIRE(fs.Rename("d/b", "d/a").ok());
  auto after = (*d)->IdentityStat("a");
  REQUIRE(after.ok());
  CHECK_FALSE(folio::SameFileState(*after, *by_dir));
  CHECK(after->size == 12);
}

TEST_CASE_TEMPLATE("Fs: CreateNew makes a new file and nothing else", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  w.Symlink("link", "d/target");
  w.Symlink("dlink", "d");
  Put(fs, "file", "x");

  auto f = fs.CreateNew("d/new");
  REQUIRE(f.ok());
  REQUIRE((*f)->Append("ab").ok());
  REQUIRE((*f)->Append("").ok());
  REQUIRE((*f)->Append("cd").ok());
  REQUIRE((*f)->Sync().ok());
  REQUIRE((*f)->Close().ok());
  CHECK((*f)->Close().ok());  // twice is harmless
  CHECK((*f)->Append("x").kind() == ErrorKind::kStorage);
  CHECK((*f)->Sync().kind() == ErrorKind::kStorage);
  CHECK(Get(fs, "d/new") == "abcd");

  CHECK_FAILS(fs.CreateNew("d/new"), kExists, "d/new");
  CHECK_FAILS(fs.CreateNew("d"), kExists, "d");
  CHECK_FAILS(fs.CreateNew("link"), kExists, "link");
  CHECK_FAILS(fs.CreateNew("missing/f"), kNoEnt, "missing/f");
  CHECK_FAILS(fs.CreateNew("file/f"), kNotDir, "file/f");
  CHECK_FAILS(fs.CreateNew("dlink/f"), kLoop, "dlink/f");
  CHECK(Names(fs, "d") == std::set<std::string>{"new"});
}

TEST_CASE_TEMPLATE("Fs: AppendFrom copies what the source has left", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "src", "0123456789");
  auto src = fs.Open("src");
  REQUIRE(src.ok());
  REQUIRE((*src)->Seek(3).ok());
  auto dst = fs.CreateNew("dst");
  REQUIRE(dst.ok());
  REQUIRE((*dst)->Append("<").ok());
  REQUIRE((*dst)->AppendFrom(**src).ok());
  REQUIRE((*dst)->Close().ok());
  CHECK(Get(fs, "dst") == "<3456789");
}

TEST_CASE_TEMPLATE("Fs: Rename replaces a file or an empty directory, atomically", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "a", "A");
  Put(fs, "b", "B");
  const uint64_t a_ino = InodeOf(fs, "a");
  REQUIRE(fs.Rename("a", "b").ok());
  CHECK(Get(fs, "b") == "A");
  CHECK(InodeOf(fs, "b") == a_ino);
  CHECK(Names(fs, "") == std::set<std::string>{"b"});

  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "d/f", "F");
  REQUIRE(fs.MakeDir("empty").ok());
  REQUIRE(fs.Rename("d", "empty").ok());
  CHECK(Get(fs, "empty/f") == "F");
  CHECK(Names(fs, "") == std::set<std::string>{"b", "empty"});

  REQUIRE(fs.MakeDir("full").ok());
  Put(fs, "full/x", "X");
  REQUIRE(fs.MakeDir("dir2").ok());
  CHECK_FAILS(fs.Rename("dir2", "full"), kNotEmpty, "full");
  CHECK_FAILS(fs.Rename("b", "full"), kIsDir, "full");
  CHECK_FAILS(fs.Rename("dir2", "b"), kNotDir, "dir2");
  CHECK_FAILS(fs.Rename("missing", "c"), kNoEnt, "missing");
  CHECK_FAILS(fs.Rename("b", "nodir/c"), kNoEnt, "nodir");
  CHECK_FAILS(fs.Rename("b", "b/c"), kNotDir, "b");
  CHECK_FAILS(fs.Rename("full", "full/x2"), std::errc::invalid_argument, "full");
  REQUIRE(fs.MakeDir("full/sub").ok());
  CHECK_FAILS(fs.Rename("full/sub", "full"), kNotEmpty, "full");
  // Renaming a name onto itself does nothing.
  REQUIRE(fs.Rename("b", "b").ok());
  CHECK(Get(fs, "b") == "A");
  // Across directories.
  REQUIRE(fs.Rename("b", "full/b").ok());
  CHECK(Get(fs, "full/b") == "A");
  CHECK(Names(fs, "full") == std::set<std::string>{"b", "sub", "x"});
}

TEST_CASE_TEMPLATE("Fs: Rename of two names of one file does nothing", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "a", "A");
  REQUIRE(fs.Link("a", "b").ok());
  REQUIRE(fs.Rename("a", "b").ok());
  CHECK(Names(fs, "") == std::set<std::string>{"a", "b"});
}

TEST_CASE_TEMPLATE("Fs: Rename moves a symlink itself, never what it points to", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "target", "T");
  w.Symlink("link", "target");
  Put(fs, "over", "O");
  REQUIRE(fs.Rename("link", "moved").ok());
  CHECK(fs.Stat("moved")->type == FileType::kSymlink);
  REQUIRE(fs.Rename("target", "moved").ok());  // a file replaces the symlink
  CHECK(Get(fs, "moved") == "T");
  w.Symlink("link2", "over");
  REQUIRE(fs.Rename("link2", "over").ok());  // a symlink replaces a file
  CHECK(fs.Stat("over")->type == FileType::kSymlink);
}

TEST_CASE_TEMPLATE("Fs: RenameNoReplace never replaces", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "a", "A");
  Put(fs, "b", "B");
  REQUIRE(fs.MakeDir("d").ok());
  CHECK_FAILS(fs.RenameNoReplace("a", "b"), kExists, "b");
  CHECK_FAILS(fs.RenameNoReplace("a", "d"), kExists, "d");
  CHECK_FAILS(fs.RenameNoReplace("a", "a"), kExists, "a");
  CHECK_FAILS(fs.RenameNoReplace("missing", "c"), kNoEnt, "missing");
  CHECK(Get(fs, "b") == "B");
  REQUIRE(fs.RenameNoReplace("a", "d/a").ok());
  CHECK(Get(fs, "d/a") == "A");
  CHECK(Names(fs, "") == std::set<std::string>{"b", "d"});
  // A directory: never over a file, nor over an empty directory (a plain rename would).
  REQUIRE(fs.MakeDir("e").ok());
  Put(fs, "e/x", "X");
  REQUIRE(fs.MakeDir("f").ok());
  CHECK_FAILS(fs.RenameNoReplace("e", "f"), kExists, "f");
  CHECK_FAILS(fs.RenameNoReplace("e", "b"), kExists, "b");
  CHECK(Names(fs, "f").empty());
  REQUIRE(fs.RenameNoReplace("e", "d/e").ok());
  CHECK(Get(fs, "d/e/x") == "X");
  CHECK(Names(fs, "") == std::set<std::string>{"b", "d", "f"});
}

TEST_CASE_TEMPLATE("Fs: Exchange swaps two names atomically; both must exist", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "a", "A");
  Put(fs, "d/b", "B");
  if constexpr (!kSwaps<W>) {
    // Without the call (or with whole-second timestamps): refused, nothing changed.
    CHECK(fs.Exchange("a", "d/b").Is(std::errc::operation_not_supported));
    CHECK(Get(fs, "a") == "A");
    CHECK(Get(fs, "d/b") == "B");
    return;
  }
  const uint64_t ia = InodeOf(fs, "a"), ib = InodeOf(fs, "d/b");
  auto before = fs.Stat("a");
  REQUIRE(before.ok());
  // An open reader keeps the file it opened.
  auto reader = fs.Open("a");
  REQUIRE(reader.ok());
  // Past the disk's timestamp granularity (a clock tick), so that the ctime can move.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(fs.Exchange("a", "d/b").ok());
  CHECK(Get(fs, "a") == "B");
  CHECK(Get(fs, "d/b") == "A");
  CHECK(InodeOf(fs, "a") == ib);
  CHECK(InodeOf(fs, "d/b") == ia);
  // The moved file's ctime moved (a reader can tell it changed while it read).
  auto moved = (*reader)->Stat();
  REQUIRE(moved.ok());
  CHECK(moved->ctime_ns != before->ctime_ns);
  CHECK_FALSE(UnchangedWhileRead(*before, *moved));
  CHECK_FAILS(fs.Exchange("a", "missing"), kNoEnt, "a");
  CHECK_FAILS(fs.Exchange("missing", "a"), kNoEnt, "missing");
  CHECK(Get(fs, "a") == "B");
  // A directory and a file swap as well; a directory cannot go below itself.
  REQUIRE(fs.Exchange("a", "d").ok());
  CHECK(Get(fs, "d") == "B");
  CHECK(Get(fs, "a/b") == "A");
  CHECK(Names(fs, "") == std::set<std::string>{"a", "d"});
  CHECK_FALSE(fs.Exchange("a", "a/b").ok());
}

TEST_CASE_TEMPLATE("Fs: OpenToRewrite writes an existing file in place", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "f", "hello world");
  REQUIRE(fs.Link("f", "g").ok());
  w.Symlink("link", "f");
  w.Special("fifo");
  const uint64_t ino = InodeOf(fs, "f");
  {
    auto file = fs.OpenToRewrite("f");
    REQUIRE_MESSAGE(file.ok(), file.status().ToString());
    auto st = (*file)->Stat();
    REQUIRE(st.ok());
    CHECK(st->inode == ino);
    CHECK(st->links == 2);
    CHECK(st->size == 11);
    REQUIRE((*file)->Append("HELLO").ok());
    CHECK(Get(fs, "f") == "HELLO world");  // kept until written over
    REQUIRE((*file)->Truncate(5).ok());
    REQUIRE((*file)->Append("!").ok());  // the position stays where writing left it
    REQUIRE((*file)->Close().ok());
  }
  CHECK(Get(fs, "f") == "HELLO!");
  CHECK(Get(fs, "g") == "HELLO!");  // the same file
  CHECK(InodeOf(fs, "f") == ino);
  CHECK_FAILS(fs.OpenToRewrite("missing"), kNoEnt, "missing");
  CHECK_FAILS(fs.OpenToRewrite("d"), kIsDir, "d");
  CHECK_FAILS(fs.OpenToRewrite("link"), kLoop, "link");
  CHECK_FAILS(fs.OpenToRewrite("fifo"), std::errc::invalid_argument, "fifo");
  CHECK(Get(fs, "f") == "HELLO!");
}

TEST_CASE_TEMPLATE("Fs: SyncDir and List take a directory", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  REQUIRE(fs.MakeDir("d/sub").ok());
  Put(fs, "d/f", "F");
  w.Symlink("d/link", "f");
  w.Special("d/fifo");
  auto list = fs.List("d");
  REQUIRE(list.ok());
  std::map<std::string, FileType> got;
  for (const DirEntry& e : *list) got[e.name] = e.type;
  CHECK(got == std::map<std::string, FileType>{{"sub", FileType::kDirectory},
                                               {"f", FileType::kFile},
                                               {"link", FileType::kSymlink},
                                               {"fifo", FileType::kOther}});
  CHECK(Names(fs, "d/sub").empty());
  CHECK(fs.SyncDir("d").ok());
  CHECK(fs.SyncDir("").ok());
  for (const char* not_dir : {"d/f", "d/fifo"}) {
    CHECK_FAILS(fs.SyncDir(not_dir), kNotDir, not_dir);
    CHECK_FAILS(fs.List(not_dir), kNotDir, not_dir);
  }
  // A final symlink is opened as itself (O_NOFOLLOW), and is no directory.
  CHECK_FAILS(fs.SyncDir("d/link"), kNotDir, "d/link");
  CHECK_FAILS(fs.List("d/link"), kNotDir, "d/link");
  w.Symlink("dlink", "d");
  CHECK_FAILS(fs.SyncDir("dlink"), kNotDir, "dlink");
  CHECK_FAILS(fs.List("dlink/sub"), kLoop, "dlink/sub");
  CHECK_FAILS(fs.SyncDir("missing"), kNoEnt, "missing");
  CHECK_FAILS(fs.List("missing"), kNoEnt, "missing");
  CHECK_FAILS(fs.List("d/f/x"), kNotDir, "d/f/x");
}

TEST_CASE_TEMPLATE("Fs: MakeDir makes one new directory", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  REQUIRE(fs.MakeDir("d/e").ok());
  CHECK(fs.Stat("d/e")->type == FileType::kDirectory);
  Put(fs, "f", "F");
  w.Symlink("link", "d");
  CHECK_FAILS(fs.MakeDir("d"), kExists, "d");
  CHECK_FAILS(fs.MakeDir("f"), kExists, "f");
  CHECK_FAILS(fs.MakeDir("link"), kExists, "link");
  CHECK_FAILS(fs.MakeDir(""), kExists, "");
  CHECK_FAILS(fs.MakeDir("missing/e"), kNoEnt, "missing");
  CHECK_FAILS(fs.MakeDir("f/e"), kNotDir, "f");
  CHECK_FAILS(fs.MakeDir("link/e"), kLoop, "link");
}

TEST_CASE_TEMPLATE("Fs: Remove takes one name: a file, a link, a special file or an empty directory", W,
                   PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "d/f", "F");
  REQUIRE(fs.MakeDir("empty").ok());
  w.Symlink("link", "d");
  w.Special("fifo");
  CHECK_FAILS(fs.Remove("d"), kNotEmpty, "d");
  CHECK_FAILS(fs.Remove("missing"), kNoEnt, "missing");
  CHECK_FAILS(fs.Remove("missing/f"), kNoEnt, "missing");
  CHECK_FAILS(fs.Remove("link/f"), kLoop, "link");
  REQUIRE(fs.Remove("link").ok());
  CHECK(Get(fs, "d/f") == "F");  // the link went, not what it pointed to
  REQUIRE(fs.Remove("fifo").ok());
  REQUIRE(fs.Remove("empty").ok());
  REQUIRE(fs.Remove("d/f").ok());
  REQUIRE(fs.Remove("d").ok());
  CHECK(Names(fs, "").empty());
}

TEST_CASE_TEMPLATE("Fs: RemoveTree removes everything below, links as links", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("keep").ok());
  Put(fs, "keep/k", "K");
  REQUIRE(fs.MakeDir("t").ok());
  REQUIRE(fs.MakeDir("t/a").ok());
  REQUIRE(fs.MakeDir("t/a/b").ok());
  Put(fs, "t/a/b/f", "F");
  Put(fs, "t/g", "G");
  w.Symlink("t/a/evil", "../../keep");
  w.Special("t/fifo");
  REQUIRE(fs.RemoveTree("t").ok());
  CHECK(Names(fs, "") == std::set<std::string>{"keep"});
  CHECK(Get(fs, "keep/k") == "K");
  CHECK(fs.RemoveTree("t").ok());
  CHECK(fs.RemoveTree("missing/below").ok());
  REQUIRE(fs.RemoveTree("keep/k").ok());  // a file alone
  CHECK(Names(fs, "keep").empty());
  Put(fs, "file", "x");
  CHECK_FAILS(fs.RemoveTree("file/x"), kNotDir, "file");
  w.Symlink("link", "keep");
  CHECK_FAILS(fs.RemoveTree("link/x"), kLoop, "link");
}

TEST_CASE_TEMPLATE("Fs: Stat reports type, size and identity without following a final link", W, PosixWorld,
                   PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "d/f", "12345");
  Put(fs, "g", "");
  w.Symlink("link", "d/f");
  w.Special("fifo");
  auto f = fs.Stat("d/f");
  REQUIRE(f.ok());
  CHECK(f->type == FileType::kFile);
  CHECK(f->size == 5);
  CHECK(f->mtime_ns > 0);
  auto g = fs.Stat("g");
  REQUIRE(g.ok());
  CHECK(g->size == 0);
  CHECK(g->inode != f->inode);
  CHECK(g->device == f->device);
  CHECK(fs.Stat("d")->type == FileType::kDirectory);
  CHECK(fs.Stat("")->type == FileType::kDirectory);
  CHECK(fs.Stat("link")->type == FileType::kSymlink);
  CHECK(fs.Stat("fifo")->type == FileType::kOther);
  auto id = fs.IdentityStat("d/f");
  REQUIRE(id.ok());
  CHECK(id->inode == f->inode);
  CHECK(id->size == f->size);
  CHECK(id->mtime_ns == f->mtime_ns);
  CHECK(id->device == f->device);
  CHECK(Exists(fs, "d/f"));
  CHECK_FALSE(Exists(fs, "d/missing"));
  CHECK_FAILS(fs.Stat("d/missing"), kNoEnt, "d/missing");
  CHECK_FAILS(fs.IdentityStat("d/missing"), kNoEnt, "d/missing");
  CHECK_FAILS(fs.Stat("missing/x"), kNoEnt, "missing");
  CHECK_FAILS(fs.Stat("g/x"), kNotDir, "g");
  // Appending changes the identity.
  auto file = fs.OpenRandomAccess("g");
  REQUIRE(file.ok());
  REQUIRE((*file)->WriteAt(0, "more").ok());
  CHECK(fs.IdentityStat("g")->size == 4);
}

TEST_CASE_TEMPLATE("Fs: Lock creates the file and excludes as flock does", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  w.Symlink("link", "d");
  {
    auto a = fs.Lock("lock", LockMode::kShared);
    REQUIRE(a.ok());
    auto b = fs.Lock("lock", LockMode::kShared);  // shared holders share
    REQUIRE(b.ok());
  }
  CHECK(fs.Stat("lock")->type == FileType::kFile);
  CHECK_FAILS(fs.Lock("d"), kIsDir, "d");
  CHECK_FAILS(fs.Lock("link"), kLoop, "link");
  CHECK_FAILS(fs.Lock("missing/lock"), kNoEnt, "missing/lock");
  w.Special("fifo");
  CHECK(fs.Lock("fifo").ok());  // opened read-write, which does not wait for a FIFO

  for (LockMode first : {LockMode::kExclusive, LockMode::kShared}) {
    CAPTURE(static_cast<int>(first));
    auto held = fs.Lock("lock", first);
    REQUIRE(held.ok());
    std::atomic<bool> acquired{false};
    std::thread other([&] {
      auto l = fs.Lock("lock", LockMode::kExclusive);
      REQUIRE(l.ok());
      acquired = true;
    });
    // Only a slow machine could make this pass without proving anything; never fail.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(acquired.load());
    held->reset();
    other.join();
    CHECK(acquired.load());
  }
}

TEST_CASE_TEMPLATE("Fs: Link gives a file a second name", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "a", "A");
  w.Symlink("link", "a");
  w.Special("fifo");
  REQUIRE(fs.Link("a", "d/b").ok());
  CHECK(InodeOf(fs, "a") == InodeOf(fs, "d/b"));
  auto file = fs.OpenRandomAccess("a");
  REQUIRE(file.ok());
  REQUIRE((*file)->WriteAt(1, "BC").ok());
  CHECK(Get(fs, "d/b") == "ABC");  // one file, two names
  REQUIRE(fs.Remove("a").ok());
  CHECK(Get(fs, "d/b") == "ABC");
  // A symlink is linked as itself.
  REQUIRE(fs.Link("link", "link2").ok());
  CHECK(fs.Stat("link2")->type == FileType::kSymlink);
  REQUIRE(fs.Link("fifo", "fifo2").ok());
  CHECK(fs.Stat("fifo2")->type == FileType::kOther);

  CHECK_FAILS(fs.Link("d/b", "link"), kExists, "link");
  CHECK_FAILS(fs.Link("d/b", "d"), kExists, "d");
  CHECK_FAILS(fs.Link("missing", "c"), kNoEnt, "missing");
  CHECK_FAILS(fs.Link("d", "c"), std::errc::operation_not_permitted, "d");
  CHECK_FAILS(fs.Link("d/b", "nodir/c"), kNoEnt, "nodir");
  CHECK_FAILS(fs.Link("nodir/b", "c"), kNoEnt, "nodir");
}

TEST_CASE_TEMPLATE("Fs: OpenRandomAccess reads and writes at offsets", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  REQUIRE(fs.MakeDir("d").ok());
  w.Symlink("link", "x");
  w.Special("fifo");
  Put(fs, "kept", "0123");
  {
    auto f = fs.OpenRandomAccess("kept");  // an existing file is not truncated
    REQUIRE(f.ok());
    CHECK(*(*f)->Size() == 4);
    REQUIRE((*f)->WriteAt(6, "xy").ok());  // a gap reads as zero bytes
    REQUIRE((*f)->DataSync().ok());
    CHECK(*(*f)->Size() == 8);
    char buf[16];
    auto n = (*f)->ReadAt(2, buf, sizeof buf);
    REQUIRE(n.ok());
    CHECK(std::string(buf, *n) == std::string("23\0\0xy", 6));
    n = (*f)->ReadAt(100, buf, sizeof buf);
    REQUIRE(n.ok());
    CHECK(*n == 0);
  }
  auto made = fs.OpenRandomAccess("d/new");
  REQUIRE(made.ok());
  CHECK(*(*made)->Size() == 0);
  CHECK(fs.Stat("d/new")->type == FileType::kFile);
  CHECK_FAILS(fs.OpenRandomAccess("d"), kIsDir, "d");
  CHECK_FAILS(fs.OpenRandomAccess("link"), kLoop, "link");
  CHECK_FAILS(fs.OpenRandomAccess("fifo"), std::errc::invalid_argument, "fifo");
  CHECK_FAILS(fs.OpenRandomAccess("missing/f"), kNoEnt, "missing/f");
}

TEST_CASE_TEMPLATE("Fs: SyncAll, BootId and Describe", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  Put(fs, "f", "F");
  CHECK(fs.SyncAll().ok());
  const std::string boot = fs.BootId();
  CHECK_FALSE(boot.empty());
  CHECK(fs.BootId() == boot);
  CHECK(Contains(fs.Describe("a/b"), "a/b"));
}

TEST_CASE_TEMPLATE("Fs: ReadWholeFile and SameBytes", W, PosixWorld, PosixHeldWorld, MemWorld, FALLBACK_WORLDS) {
  W w;
  Fs& fs = w.fs();
  const std::string big(200000, 'z');
  Put(fs, "a", big);
  Put(fs, "b", big);
  Put(fs, "c", big.substr(1) + "y");
  CHECK(*ReadWholeFile(fs, "a") == big);
  CHECK(*ReadWholeFile(fs, "a", big.size()) == big);  // exactly the bound is allowed
  auto over = ReadWholeFile(fs, "a", big.size() - 1);
  REQUIRE_FALSE(over.ok());
  CHECK(over.status().kind() == ErrorKind::kStorage);
  CHECK(SameBytes(fs, "a", "b") == true);
  CHECK(SameBytes(fs, "a", "c") == false);
  CHECK(SameBytes(fs, "a", "missing") == std::nullopt);
  CHECK(*ReadWholeRecord(fs, "a") == big);
  auto missing = ReadWholeRecord(fs, "missing");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().Is(kNoEnt));
}
