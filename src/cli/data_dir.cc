// The messages about a directory that is not a Folio data directory (its kind comes
// from folio::ClassifyDirectory).
#include "cli/data_dir.h"

#include <stdlib.h>

#include <memory>


namespace folio::cli {
namespace {

// `path` without its last component, and that component ("/a/b" -> "/a", "b").
std::pair<std::string, std::string> SplitLast(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// `dir` as the user wrote it when its last `levels` components are plain names (so
// that the hint reads like the command line), else its absolute path.
std::string Shown(const std::string& dir, int levels) {
  std::string trimmed = dir;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  std::string rest = trimmed;
  bool plain = true;
  for (int i = 0; i < levels && plain; ++i) {
    const auto [parent, name] = SplitLast(rest);
    plain = !name.empty() && name != "." && name != ".." && parent != "." && parent != ".." &&
            !parent.ends_with("/..") && !parent.ends_with("/.");
    rest = parent;
  }
  if (plain) return trimmed;
  std::unique_ptr<char, decltype(&::free)> real(::realpath(dir.c_str(), nullptr), &::free);
  return real ? std::string(real.get()) : trimmed;
}

std::string Hint(HintFor hint, const std::string& data_dir, const std::string& path) {
  if (hint == HintFor::kServe) return "folio serve --data " + data_dir;
  return "folio inspect " + data_dir + (path.empty() ? "" : " " + path);
}

}  // namespace

std::string NotADataDirectory(const std::string& dir, DirKind kind, HintFor hint) {
  const std::string quoted = "'" + dir + "'";
  switch (kind) {
    case DirKind::kMissing: return quoted + " does not exist";
    case DirKind::kNotADirectory: return quoted + " is not a directory";
    case DirKind::kUnreadable: return quoted + " cannot be read";
    case DirKind::kDomain: {
      const auto [data, domain] = SplitLast(Shown(dir, 1));
      return quoted + " is a domain directory, not a data directory: try " + Hint(hint, data, domain);
    }
    case DirKind::kRepository: {
      const auto [domain_dir, repository] = SplitLast(Shown(dir, 2));
      const auto [data, domain] = SplitLast(domain_dir);
      return quoted + " is a repository directory, not a data directory: try " +
             Hint(hint, data, domain + "/" + repository);
    }
    case DirKind::kEmpty:
    case DirKind::kOther:
      return quoted + " is not a Folio data directory: it has no .folio/folio.json"
             " and no domains (folio serve --data DIR starts one in a new or empty directory)";
    case DirKind::kDataDirectory: break;
  }
  return quoted + " is a Folio data directory";
}

}  // namespace folio::cli
