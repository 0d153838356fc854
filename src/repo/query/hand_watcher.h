// Files added, edited or removed by hand in a repository's folders (docs/STORAGE.md §9),
// seen by the query index without scanning the tree: an inotify watch on every folder
// directory of the repository (never on the `.folio` metadata directories), read without
// blocking before each query. A name that appeared or changed is read through the
// Repository API, which adopts a new file or folder, or takes an edit in, and so records
// its event in the change log like any other change; a name that disappeared is handed
// back, for the index to look at again what it filed under that name.
//
// The server's own writes make events too (a document's visible file is written by a
// rename): reading one such object again costs one lookup and records nothing.
//
// Without inotify (or past the system's limit of watches) the watcher says so in the
// log once and sees nothing; hand-made changes are then found when Folio first touches
// them, or by `folio fsck --repair`.
//
// Thread-safety: a HandWatcher is not thread-safe (QueryIndex calls it under its writer
// lock); the Inotify instance it shares with the other watchers of a server is.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "folio/fs.h"
#include "folio/repository.h"

namespace folio::query {

class HandWatcher;

// One inotify instance shared by the watchers of a server's repositories: the system
// gives a user few instances (fs.inotify.max_user_instances, often 128) but many
// watches. Events are read by whichever watcher drains first and kept for their owner.
class Inotify {
 public:
  struct Event {
    int wd = -1;
    uint32_t mask = 0;
    std::string name;
  };

  Inotify();  // check ok(): the instance may be refused (errno kept in error())
  ~Inotify();
  Inotify(const Inotify&) = delete;
  Inotify& operator=(const Inotify&) = delete;
  bool ok() const { return fd_ >= 0; }
  int error() const { return error_; }

  // A watch of `host_path` for `owner`; -1 (errno set) when refused.
  int AddWatch(const std::string& host_path, uint32_t mask, HandWatcher* owner);
  // Removes every watch of `owner` and the events kept for it.
  void Forget(HandWatcher* owner);
  // Reads what the kernel has (never waits) and returns the events of `owner`, oldest
  // first; `overflow` when events were lost (for every owner: each must start afresh).
  std::vector<Event> Take(HandWatcher* owner, bool& overflow);

 private:
  std::mutex mu_;
  int fd_ = -1;
  int error_ = 0;
  std::map<int, HandWatcher*> owners_;  // watch descriptor -> owner
  std::map<HandWatcher*, std::vector<Event>> kept_;
  std::map<HandWatcher*, bool> overflowed_;
};

class HandWatcher {
 public:
  using Logger = std::function<void(const std::string&)>;

  // Watches the folders of the repository at data-directory-relative `base` on `fs`
  // (host paths through fs.Describe), through `inotify`.
  HandWatcher(Fs& fs, std::string base, std::shared_ptr<Inotify> inotify, Logger log);
  ~HandWatcher();
  HandWatcher(const HandWatcher&) = delete;
  HandWatcher& operator=(const HandWatcher&) = delete;

  // Starts watching (every folder below the repository). Call before the index is
  // built, so that nothing made during the build is missed. Returns false when the
  // watcher cannot see anything (it logged why).
  bool Start();

  // What Drain found that the index must look at itself.
  struct Found {
    // (folder path, name) of entries that disappeared: the object filed there is gone
    // or moved (repository-relative folder path, "" for the root folder).
    std::vector<std::pair<std::string, std::string>> removed;
    bool overflow = false;  // events were lost: only a rebuild can be trusted
  };

  // Reads the events that arrived since the last call (never waits), and reads every
  // new or changed name through `repo` (adoption records its events). Errors: none: a
  // name that cannot be read is left to the next request that touches it.
  Found Drain(Repository& repo);

 private:
  void WatchTree(const std::string& rel);  // rel: repository-relative folder path
  void Touch(Repository& repo, const std::string& rel_path, bool is_dir);

  Fs& fs_;
  const std::string base_;
  const std::shared_ptr<Inotify> inotify_;
  const Logger log_;
  bool started_ = false;
  bool failed_ = false;
  std::map<int, std::string> folders_;  // watch descriptor -> repository-relative folder path
};

}  // namespace folio::query
