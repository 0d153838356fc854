// storage::CopyTree (src/storage/tree_copy.h): a file or directory removed between the
// listing of its directory and its copy is left out when the caller asks (the rest is
// copied whole), an error otherwise; a missing root is always an error.
#include <doctest/doctest.h>

#include <set>

#include "storage/atomic_write.h"
#include "storage/mem_fs.h"
#include "storage/tree_copy.h"

namespace folio::storage {
namespace {

// A MemFs that removes `doomed` once `dir` has been listed: what a background job that
// removes garbage does in the middle of a copy.
class RemovingAfterList : public MemFs {
 public:
  RemovingAfterList(std::string dir, std::string doomed) : dir_(std::move(dir)), doomed_(std::move(doomed)) {}
  Result<std::vector<DirEntry>> List(const std::string& dir) override {
    auto entries = MemFs::List(dir);
    if (dir == dir_) REQUIRE(MemFs::RemoveTree(doomed_).ok());
    return entries;
  }

 private:
  std::string dir_, doomed_;
};

std::set<std::string> Files(Fs& fs, const std::string& dir) {
  std::set<std::string> out;
  auto entries = fs.List(dir);
  REQUIRE(entries.ok());
  for (const DirEntry& e : *entries) {
    const std::string path = dir.empty() ? e.name : dir + "/" + e.name;
    if (e.type == FileType::kDirectory) {
      out.insert(path + "/");
      for (const std::string& f : Files(fs, path)) out.insert(f);
    } else {
      out.insert(path);
    }
  }
  return out;
}

void Fill(Fs& fs) {
  REQUIRE(fs.MakeDir("a").ok());
  REQUIRE(fs.MakeDir("a/gone").ok());
  REQUIRE(WriteFileAtomically(fs, "a/gone/x", "x").ok());
  REQUIRE(WriteFileAtomically(fs, "a/kept", "kept").ok());
  REQUIRE(WriteFileAtomically(fs, "a/spare", "spare").ok());
}

}  // namespace

TEST_CASE("CopyTree: asked to, it leaves out a file or folder removed after its folder was listed") {
  for (const std::string doomed : {"a/spare", "a/gone"}) {
    CAPTURE(doomed);
    RemovingAfterList src("a", doomed);
    Fill(src);
    MemFs dst;
    REQUIRE(dst.MakeDir("copy").ok());
    Status s = CopyTree(src, "", dst, "copy", false, VanishedEntries::kLeaveOut);
    REQUIRE_MESSAGE(s.ok(), s.message());
    std::set<std::string> want = {"copy/a/", "copy/a/kept", "copy/a/gone/", "copy/a/gone/x", "copy/a/spare"};
    for (auto it = want.begin(); it != want.end();) {
      it = it->rfind("copy/" + doomed, 0) == 0 ? want.erase(it) : std::next(it);
    }
    CHECK(Files(dst, "copy") == want);
    auto kept = ReadWholeFile(dst, "copy/a/kept");
    REQUIRE(kept.ok());
    CHECK(*kept == "kept");
  }
}

TEST_CASE("CopyTree: a file removed during the copy is an error unless asked to leave it out") {
  RemovingAfterList src("a", "a/spare");
  Fill(src);
  MemFs dst;
  Status s = CopyTree(src, "", dst, "");
  CHECK(s.kind() == ErrorKind::kStorage);
  CHECK(s.message().find("a/spare") != std::string::npos);
}

TEST_CASE("CopyTree: a missing root is an error") {
  MemFs src, dst;
  Status s = CopyTree(src, "nothing", dst, "");
  CHECK(s.kind() == ErrorKind::kStorage);
  CHECK(s.Is(std::errc::no_such_file_or_directory));
  CHECK(CopyTree(src, "nothing", dst, "", false, VanishedEntries::kLeaveOut).kind() == ErrorKind::kStorage);
}

}  // namespace folio::storage
