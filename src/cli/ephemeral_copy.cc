// EphemeralCopy: mkdtemp, the owner mark, the copy; and the sweep of copies whose
// maker died (SIGKILL, a crashed test runner) before it could remove them.
#include "cli/ephemeral_copy.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <optional>

#include "folio/fs.h"
#include "storage/json_access.h"
#include "storage/json_file.h"
#include "storage/tree_copy.h"

namespace folio::cli {
namespace {

constexpr std::string_view kPrefix = "folio-ephemeral-";
constexpr size_t kRandomChars = 6;  // mkdtemp's XXXXXX
constexpr const char* kMarkFile = "owner.json";
constexpr const char* kDataDir = "data";

// The first line of a small /proc file; "" if it cannot be read.
std::string ReadProcLine(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return "";
  std::string line(buf, static_cast<size_t>(n));
  return line.substr(0, line.find('\n'));
}

std::string BootId() { return ReadProcLine("/proc/sys/kernel/random/boot_id"); }

// "pid:[4026531836]": pids are only comparable within one pid namespace (containers
// that share $TMPDIR see each other's copies, not each other's processes).
std::string PidNamespace() {
  char buf[128];
  const ssize_t n = ::readlink("/proc/self/ns/pid", buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// Field 22 of /proc/PID/stat: when the process started, in clock ticks after boot.
// Together with the pid it names one process of one boot; nullopt if unreadable.
std::optional<uint64_t> StartTimeOf(pid_t pid) {
  const std::string stat = ReadProcLine("/proc/" + std::to_string(pid) + "/stat");
  const size_t paren = stat.rfind(')');  // the command name may hold spaces and ')'
  if (paren == std::string::npos) return std::nullopt;
  size_t pos = paren + 1;
  for (int field = 3; field <= 22; ++field) {
    while (pos < stat.size() && stat[pos] == ' ') ++pos;
    const size_t end = std::min(stat.find(' ', pos), stat.size());
    if (field == 22) {
      uint64_t value = 0;
      const auto [ptr, ec] = std::from_chars(stat.data() + pos, stat.data() + end, value);
      if (ec != std::errc() || ptr != stat.data() + end) return std::nullopt;
      return value;
    }
    pos = end;
  }
  return std::nullopt;
}

storage::Json OwnMark() {
  const pid_t pid = ::getpid();
  return storage::Json{{"folioEphemeral", 1},
                       {"pid", pid},
                       {"startTime", StartTimeOf(pid).value_or(0)},
                       {"bootId", BootId()},
                       {"pidNamespace", PidNamespace()}};
}

// True when the process `mark` names is certainly gone: another boot, no such process,
// or a process of that pid that started at another time (the pid was reused). A mark
// from another pid namespace cannot be judged: false.
bool MakerIsGone(const storage::Json& mark) {
  // The mark is a file on disk anyone may have edited: read without exceptions.
  if (storage::IntField(mark, "folioEphemeral") != 1) return false;
  const std::optional<int64_t> pid = storage::IntField(mark, "pid");
  const std::optional<uint64_t> marked = storage::UintField(mark, "startTime");
  if (!pid || !marked || *pid <= 0 || *pid > INT32_MAX) return false;
  const std::string boot = storage::StringOr(mark, "bootId", "");
  const std::string now_boot = BootId();
  if (!boot.empty() && !now_boot.empty() && boot != now_boot) return true;
  if (storage::StringOr(mark, "pidNamespace", "") != PidNamespace()) return false;
  if (::kill(static_cast<pid_t>(*pid), 0) != 0 && errno == ESRCH) return true;
  const std::optional<uint64_t> started = StartTimeOf(static_cast<pid_t>(*pid));
  return started && *marked != 0 && *started != *marked;
}

bool IsCopyName(std::string_view name) {
  return name.size() == kPrefix.size() + kRandomChars && name.substr(0, kPrefix.size()) == kPrefix;
}

}  // namespace

std::string EphemeralParentDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

Result<std::unique_ptr<EphemeralCopy>> EphemeralCopy::Make(const std::string& source) {
  std::unique_ptr<Fs> src;
  if (!source.empty()) {
    auto opened = OpenPosixFs(source, {.durable = false});
    if (!opened.ok()) {
      if (opened.status().Is(std::errc::no_such_file_or_directory)) {
        return ObjectNotFound("data directory '" + source + "' does not exist");
      }
      return opened.status();
    }
    src = std::move(*opened);
  }
  std::string pattern = EphemeralParentDir() + "/" + std::string(kPrefix) + std::string(kRandomChars, 'X');
  if (::mkdtemp(pattern.data()) == nullptr) {
    return StorageError("cannot create a temporary directory in '" + EphemeralParentDir() + "'",
                        static_cast<std::errc>(errno));
  }
  std::unique_ptr<EphemeralCopy> copy(new EphemeralCopy(pattern));
  FOLIO_ASSIGN_OR_RETURN(auto dst, OpenPosixFs(pattern, {.durable = false}));
  // The mark first: from here on a sweep can tell whose copy this is.
  FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(*dst, kMarkFile, OwnMark()));
  FOLIO_RETURN_IF_ERROR(dst->MakeDir(kDataDir));
  if (src) FOLIO_RETURN_IF_ERROR(storage::CopyTree(*src, "", *dst, kDataDir));
  return copy;
}

EphemeralCopy::~EphemeralCopy() { Remove(); }

void EphemeralCopy::Remove() {
  if (root_.empty()) return;
  const size_t slash = root_.find_last_of('/');
  auto parent = OpenPosixFs(slash == 0 ? "/" : root_.substr(0, slash), {.durable = false});
  if (parent.ok()) (void)(*parent)->RemoveTree(root_.substr(slash + 1));
  root_.clear();
}

std::vector<std::string> RemoveAbandonedEphemeralCopies() {
  std::vector<std::string> removed;
  const std::string parent_dir = EphemeralParentDir();
  auto parent = OpenPosixFs(parent_dir, {.durable = false});
  if (!parent.ok()) return removed;
  auto entries = (*parent)->List("");
  if (!entries.ok()) return removed;
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kDirectory || !IsCopyName(e.name)) continue;
    const std::string path = parent_dir + "/" + e.name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    auto mark = storage::ReadJsonFile(**parent, e.name + "/" + kMarkFile);
    if (!mark.ok() || !MakerIsGone(*mark)) continue;
    if ((*parent)->RemoveTree(e.name).ok()) removed.push_back(path);
  }
  return removed;
}

}  // namespace folio::cli
