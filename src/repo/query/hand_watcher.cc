// Files added, edited or removed by hand, through inotify; see hand_watcher.h.
#include "repo/query/hand_watcher.h"

#include <errno.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cstring>

#include "storage/layout.h"

namespace folio::query {
namespace {

constexpr uint32_t kMask = IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF |
                           IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK;

std::string Join(const std::string& folder, const std::string& name) {
  return folder.empty() ? name : folder + "/" + name;
}

}  // namespace

Inotify::Inotify() {
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) error_ = errno;
}

Inotify::~Inotify() {
  if (fd_ >= 0) ::close(fd_);
}

int Inotify::AddWatch(const std::string& host_path, uint32_t mask, HandWatcher* owner) {
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ < 0) {
    errno = error_;
    return -1;
  }
  const int wd = ::inotify_add_watch(fd_, host_path.c_str(), mask);
  if (wd >= 0) owners_[wd] = owner;
  return wd;
}

void Inotify::Forget(HandWatcher* owner) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = owners_.begin(); it != owners_.end();) {
    if (it->second != owner) {
      ++it;
      continue;
    }
    if (fd_ >= 0) ::inotify_rm_watch(fd_, it->first);
    it = owners_.erase(it);
  }
  kept_.erase(owner);
  overflowed_.erase(owner);
}

std::vector<Inotify::Event> Inotify::Take(HandWatcher* owner, bool& overflow) {
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ >= 0) {
    alignas(struct inotify_event) char buf[64 * 1024];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) break;  // EAGAIN: nothing more
      for (char* p = buf; p < buf + n;) {
        const auto* e = reinterpret_cast<const struct inotify_event*>(p);
        p += sizeof(struct inotify_event) + e->len;
        if (e->mask & IN_Q_OVERFLOW) {
          for (const auto& [wd, o] : owners_) overflowed_[o] = true;
          continue;
        }
        auto it = owners_.find(e->wd);
        if (it == owners_.end()) continue;
        HandWatcher* to = it->second;
        if (e->mask & IN_IGNORED) owners_.erase(it);  // the directory is gone
        kept_[to].push_back(Event{e->wd, e->mask, e->len > 0 ? std::string(e->name) : std::string()});
      }
    }
  }
  overflow = overflowed_[owner];
  overflowed_.erase(owner);
  std::vector<Event> out;
  auto kept = kept_.find(owner);
  if (kept != kept_.end()) {
    out.swap(kept->second);
    kept_.erase(kept);
  }
  return out;
}

HandWatcher::HandWatcher(Fs& fs, std::string base, std::shared_ptr<Inotify> inotify, Logger log)
    : fs_(fs), base_(std::move(base)), inotify_(std::move(inotify)), log_(std::move(log)) {}

HandWatcher::~HandWatcher() { inotify_->Forget(this); }

bool HandWatcher::Start() {
  if (started_) return !failed_;
  started_ = true;
  if (!inotify_->ok()) {
    failed_ = true;
    if (log_) {
      log_("files changed by hand are not watched (inotify: " + std::string(std::strerror(inotify_->error())) + ")");
    }
    return false;
  }
  WatchTree("");
  return !failed_;
}

void HandWatcher::WatchTree(const std::string& rel) {
  if (failed_) return;
  const std::string path = rel.empty() ? base_ : base_ + "/" + rel;
  const int wd = inotify_->AddWatch(fs_.Describe(path), kMask, this);
  if (wd < 0) {
    if (errno == ENOSPC || errno == ENOMEM) {
      failed_ = true;
      if (log_) {
        log_("files changed by hand are watched no further: the system's limit of inotify watches is reached "
             "(fs.inotify.max_user_watches)");
      }
    }
    return;  // gone meanwhile, or not a directory
  }
  folders_[wd] = rel;
  auto entries = fs_.List(path);
  if (!entries.ok()) return;
  for (const DirEntry& e : *entries) {
    if (e.type == FileType::kDirectory && !storage::IsReservedName(e.name)) WatchTree(Join(rel, e.name));
  }
}

void HandWatcher::Touch(Repository& repo, const std::string& rel_path, bool is_dir) {
  // Reading the object is what adopts it or takes its edit in (docs/STORAGE.md §9).
  auto object = repo.GetObjectByPathShared(rel_path);
  if (!object.ok() || !is_dir) return;
  // A folder made (or moved in) by hand may hold files and folders already: adopt them
  // too, and watch its folders.
  WatchTree(rel_path);
  for (uint64_t skip = 0;;) {
    auto page = repo.GetChildren((*object)->id, skip, 1000);
    if (!page.ok() || page->objects.empty()) break;
    for (const ObjectData& child : page->objects) {
      if (child.base == BaseType::kFolder) Touch(repo, Join(rel_path, child.name), true);
    }
    skip += page->objects.size();
    if (!page->has_more) break;
  }
}

HandWatcher::Found HandWatcher::Drain(Repository& repo) {
  Found found;
  if (!started_ || failed_) return found;
  struct Change {
    std::string path;
    bool is_dir;
  };
  std::vector<Change> touched;
  for (const Inotify::Event& e : inotify_->Take(this, found.overflow)) {
    if (e.mask & IN_IGNORED) {
      folders_.erase(e.wd);
      continue;
    }
    auto folder = folders_.find(e.wd);
    if (folder == folders_.end() || e.name.empty()) continue;
    if (storage::IsReservedName(e.name)) continue;  // metadata and temporary files
    if (e.mask & (IN_DELETE | IN_MOVED_FROM)) {
      found.removed.emplace_back(folder->second, e.name);
    } else {
      touched.push_back({Join(folder->second, e.name), (e.mask & IN_ISDIR) != 0});
    }
  }
  for (const Change& c : touched) Touch(repo, c.path, c.is_dir);
  return found;
}

}  // namespace folio::query
