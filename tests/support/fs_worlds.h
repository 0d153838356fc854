// The Fs implementations as test fixtures of one shape, for tests written once and run
// on each (TEST_CASE_TEMPLATE(..., W, PosixWorld, PosixHeldWorld, MemWorld)), plus small
// helpers.
#pragma once

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>

#include "folio/fs.h"
#include "storage/mem_fs.h"
#include "support/temp_dir.h"

namespace folio::testing {

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
