// Test tools around MemFs: importing a real directory tree, dumping any Fs tree.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "storage/layout.h"
#include "storage/mem_fs.h"

namespace folio::storage {
namespace {

namespace stdfs = std::filesystem;

Status HostError(const stdfs::path& path, const std::string& what) {
  return StorageError("cannot import '" + path.string() + "': " + what);
}

Status ImportDir(MemFs& fs, const stdfs::path& host, const std::string& into) {
  std::error_code ec;
  std::vector<stdfs::path> children;
  for (stdfs::directory_iterator it(host, ec), end; !ec && it != end; it.increment(ec)) {
    children.push_back(it->path());
  }
  if (ec) return HostError(host, ec.message());
  std::sort(children.begin(), children.end());
  for (const stdfs::path& child : children) {
    const std::string path = JoinPath(into, child.filename().string());
    const stdfs::file_status st = stdfs::symlink_status(child, ec);
    if (ec) return HostError(child, ec.message());
    if (stdfs::is_directory(st)) {
      FOLIO_RETURN_IF_ERROR(fs.MakeDir(path));
      FOLIO_RETURN_IF_ERROR(ImportDir(fs, child, path));
    } else if (stdfs::is_regular_file(st)) {
      std::ifstream in(child, std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      if (!in) return HostError(child, "read failed");
      FOLIO_ASSIGN_OR_RETURN(auto file, fs.CreateNew(path));
      FOLIO_RETURN_IF_ERROR(file->Append(bytes.str()));
      FOLIO_RETURN_IF_ERROR(file->Close());
    } else if (stdfs::is_symlink(st)) {
      const stdfs::path target = stdfs::read_symlink(child, ec);
      if (ec) return HostError(child, ec.message());
      FOLIO_RETURN_IF_ERROR(fs.MakeSymlinkForTest(path, target.string()));
    } else {
      FOLIO_RETURN_IF_ERROR(fs.MakeSpecialFileForTest(path));
    }
  }
  return OkStatus();
}

std::string Escaped(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u >= 0x7f) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

void DumpDir(Fs& fs, const std::string& dir, std::string& out) {
  auto entries = fs.List(dir);
  if (!entries.ok()) {
    out += (dir.empty() ? "." : dir) + " ! " + entries.status().message() + "\n";
    return;
  }
  std::sort(entries->begin(), entries->end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  for (const DirEntry& e : *entries) {
    const std::string path = JoinPath(dir, e.name);
    switch (e.type) {
      case FileType::kDirectory:
        out += path + "/\n";
        DumpDir(fs, path, out);
        break;
      case FileType::kSymlink: out += path + "@\n"; break;
      case FileType::kOther: out += path + "|\n"; break;
      case FileType::kFile: {
        constexpr size_t kShown = 64;
        auto bytes = ReadWholeFile(fs, path);
        if (!bytes.ok()) {
          out += path + " ! " + bytes.status().message() + "\n";
        } else if (bytes->size() <= kShown) {
          out += path + " = \"" + Escaped(*bytes) + "\"\n";
        } else {
          out += path + " = \"" + Escaped(std::string_view(*bytes).substr(0, kShown)) + "...\" (" +
                 std::to_string(bytes->size()) + " bytes)\n";
        }
        break;
      }
    }
  }
}

}  // namespace

Status ImportTree(MemFs& fs, const std::string& host_dir, const std::string& into) {
  std::error_code ec;
  if (!stdfs::is_directory(host_dir, ec)) return HostError(host_dir, "not a directory");
  FOLIO_RETURN_IF_ERROR(ImportDir(fs, host_dir, into));
  return fs.SyncAll();
}

std::string DumpTree(Fs& fs, const std::string& path) {
  std::string out;
  DumpDir(fs, path, out);
  return out;
}

}  // namespace folio::storage
