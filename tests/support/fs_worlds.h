// The Fs implementations as test fixtures of one shape, for tests written once and run
// on each (TEST_CASE_TEMPLATE(..., W, PosixWorld, PosixHeldWorld, MemWorld), and the
// PosixFs fallbacks' worlds, FALLBACK_WORLDS), plus small helpers.
#pragma once

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>

#include "folio/fs.h"
#include "storage/fs_features.h"
#include "storage/mem_fs.h"
#include "support/temp_dir.h"

namespace folio::testing {

// The PosixFs worlds that take the fallbacks of a filesystem lacking calls.
#define FALLBACK_WORLDS PosixFallbackWorld, PosixNoLinksWorld, PosixFallbackHeldWorld

// Creates `path` holding `bytes` (not synced).
inline void Put(Fs& fs, const std::string& path, const std::string& bytes) {
  auto file = fs.CreateNew(path);
  REQUIRE_MESSAGE(file.ok(), file.status().ToString());
  REQUIRE((*file)->Append(bytes).ok());
  REQUIRE((*file)->Close().ok());
}

// The content of `path`, or "<error>" naming the error.
inline std::string Get(Fs& fs, const std::string& path) {
  auto bytes = ReadWholeFile(fs, path);
  return bytes.ok() ? *bytes : "<" + bytes.status().ToString() + ">";
}

// PosixFs in a fresh temp dir; symlinks and FIFOs are planted with system calls.
struct PosixWorld {
  static constexpr const char* kName = "PosixFs";
  TempDir dir;
  std::unique_ptr<Fs> fs_;

  PosixWorld() {
    auto fs = OpenPosixFs(dir.path());
    REQUIRE(fs.ok());
    fs_ = std::move(*fs);
  }
  Fs& fs() { return *fs_; }
  void Symlink(const std::string& path, const std::string& target) {
    std::error_code ec;
    std::filesystem::create_symlink(target, dir / path, ec);
    REQUIRE_FALSE(ec);
  }
  void Special(const std::string& path) { REQUIRE(::mkfifo((dir / path).c_str(), 0644) == 0); }
};

// PosixFs's HoldDirectories() view (the Fs that applies a change), kept for the whole
// test, so that every call of the contract also runs through directories it holds,
// renames and removes.
struct PosixHeldWorld : PosixWorld {
  static constexpr const char* kName = "PosixFs::HoldDirectories";
  std::unique_ptr<Fs> held_;

  PosixHeldWorld() {
    held_ = PosixWorld::fs().HoldDirectories();
    REQUIRE(held_ != nullptr);
  }
  Fs& fs() { return *held_; }
};

// PosixFs as on a filesystem without RENAME_NOREPLACE, RENAME_EXCHANGE, openat2, flock,
// directory fsync or sub-second timestamps (FUSE and network filesystems, docs/STORAGE.md):
// every fallback taken; new names by hard links (files) or a made directory replaced
// (directories), open file description locks.
struct PosixFallbackWorld : PosixWorld {
  static constexpr const char* kName = "PosixFs without RENAME_NOREPLACE, flock, ...";
  static FsFeatures Features() {
    FsFeatures f{};
    f.rename_noreplace = f.rename_exchange = f.openat2 = f.flock = f.dir_fsync = f.fine_timestamps = f.tmpfile = false;
    return f;
  }
  explicit PosixFallbackWorld(FsFeatures features = Features()) {
    auto fs = OpenPosixFs(dir.path(), PosixFsOptions{}, features);
    REQUIRE(fs.ok());
    fs_ = std::move(*fs);
  }
};

// As PosixFallbackWorld, without hard links but with flock: every new name by a rename
// under a flock of the target's directory.
struct PosixNoLinksWorld : PosixFallbackWorld {
  static constexpr const char* kName = "PosixFs without RENAME_NOREPLACE nor hard links";
  static FsFeatures Features() {
    FsFeatures f = PosixFallbackWorld::Features();
    f.hard_links = false;
    f.flock = true;
    f.ofd_locks = false;
    return f;
  }
  PosixNoLinksWorld() : PosixFallbackWorld(Features()) {}
};

// PosixFallbackWorld's HoldDirectories() view.
struct PosixFallbackHeldWorld : PosixFallbackWorld {
  static constexpr const char* kName = "PosixFs::HoldDirectories without RENAME_NOREPLACE, flock, ...";
  std::unique_ptr<Fs> held_;

  PosixFallbackHeldWorld() {
    held_ = PosixFallbackWorld::fs().HoldDirectories();
    REQUIRE(held_ != nullptr);
  }
  Fs& fs() { return *held_; }
};

// True for the worlds whose Fs swaps names (RENAME_EXCHANGE); the others refuse Exchange.
template <class W>
constexpr bool kSwaps = !std::is_base_of_v<PosixFallbackWorld, W>;

struct MemWorld {
  static constexpr const char* kName = "MemFs";
  storage::MemFs mem;

  Fs& fs() { return mem; }
  void Symlink(const std::string& path, const std::string& target) {
    REQUIRE(mem.MakeSymlinkForTest(path, target).ok());
  }
  void Special(const std::string& path) { REQUIRE(mem.MakeSpecialFileForTest(path).ok()); }
};

}  // namespace folio::testing
