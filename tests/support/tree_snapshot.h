// Every byte and every piece of metadata a process could change in a directory tree:
// for each entry (the root itself included) its path, type, size, modification and
// change times, inode and link count, and for a file its bytes (hashed). Two equal
// snapshots mean that nothing was written, created, removed, renamed, linked, touched
// or chmod'ed (access times are left out: reading moves them).
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace folio::testing {

inline std::string TreeSnapshot(const std::string& root) {
  std::ostringstream out;
  std::filesystem::recursive_directory_iterator it(root), end;
  std::vector<std::string> paths = {root};
  for (; it != end; ++it) paths.push_back(it->path().string());
  std::vector<std::string> lines;
  for (const std::string& path : paths) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    std::ostringstream line;
    line << "/" << path.substr(root.size()) << " mode=" << st.st_mode << " size=" << st.st_size
         << " mtime=" << st.st_mtim.tv_sec << "." << st.st_mtim.tv_nsec << " ctime=" << st.st_ctim.tv_sec << "."
         << st.st_ctim.tv_nsec << " ino=" << st.st_ino << " links=" << st.st_nlink;
    if (S_ISREG(st.st_mode)) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      line << " hash=" << std::hash<std::string>{}(bytes.str());
    }
    lines.push_back(line.str());
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& l : lines) out << l << "\n";
  return out.str();
}

}  // namespace folio::testing
