// A data directory: the domains it holds and their repositories (docs/API.md §3.1; docs/STORAGE.md).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/repository.h"
#include "folio/status.h"

namespace folio {

namespace repo {
struct StoreFs;
}

struct StoreOptions {
  bool read_only = false;  // every change refused with kPermissionDenied
  bool durable = true;     // false: no fsync (throw-away fixtures only)
  bool create = true;      // create the data directory's metadata if missing
  // Change-log events kept per repository (docs/API.md §7.12): past it the oldest are
  // dropped, whole segments at a time, and the log says it is incomplete.
  uint64_t change_log_max_events = 100000;
  // Told of the events every change of this process appends to a repository's change
  // log (see ChangeListener).
  ChangeListener on_changes = {};
  // How long the inode of a replaced or removed record stays unused before Folio writes
  // another file in it (docs/STORAGE.md §8.5, spare files). Only tests on a MemFs
  // should shorten it.
  uint32_t spare_grace_ms = 500;
  // How many version labels a document's series.json lists at most; a check-in past it
  // moves all but the newest half of it into an archive file (docs/STORAGE.md §4).
  // 0: no limit. Only tests should change it.
  uint32_t version_list_max = 1000;
  // What each repository keeps in memory (folio/repository_caches.h).
  RepositoryCaches caches = {};
};

struct DomainInfo {
  std::string domain_id;
  std::string description;
  int64_t created_ms = 0;
};

// What kind of directory a path is, as far as Folio's format goes.
enum class DirKind {
  kMissing,        // nothing there
  kNotADirectory,  // a file or something else
  kEmpty,          // an empty directory: a new data directory may start there
  kDataDirectory,  // .folio/folio.json, or (marker missing) at least one domain
  kDomain,         // a domain directory (.folio/domain.json): its parent is the data directory
  kRepository,     // a repository directory (.folio/repository.json)
  kOther,          // a directory with other things in it
  kUnreadable,     // cannot be opened or listed
};

// Looks at `dir` (never changes it). Symbolic links are followed only for `dir` itself.
DirKind ClassifyDirectory(const std::string& dir);

// The file, relative to the data directory, that every `folio serve` that writes holds a
// shared lock on for its whole life: `.folio/serving` (a read-only server locks the data
// directory itself and creates nothing; docs/STORAGE.md §8.8); with `read_only`, the
// file read-only servers of before held, still probed. Tools that must not change a
// served data directory (folio import, fsck --repair) probe them.
std::string ServingMarkFile(bool read_only);

class Store {
 public:
  // Opens the data directory `dir` (creating it when options.create). Does not scan it.
  // Errors: kStorage (not a directory, unreadable); kObjectNotFound if missing and !create.
  static Result<std::unique_ptr<Store>> Open(const std::string& dir, StoreOptions options = {});
  // The data directory behind `fs` (a MemFs in tests; `fs` must outlive the Store).
  // options.durable is the Fs's own business here.
  static Result<std::unique_ptr<Store>> Open(Fs& fs, StoreOptions options = {});

  // The data directory as a host path, for messages.
  const std::string& dir() const { return dir_; }

  // Domains in id order. A directory without domain metadata is not a domain.
  Result<std::vector<DomainInfo>> ListDomains();
  Result<DomainInfo> GetDomain(const std::string& domain_id);
  // Adds files to a domain being built, before it appears: called with the Fs and the
  // (temporary) domain directory, whose .folio holds domain.json. Files it makes must be
  // synced; the domain then appears with them in one step (createDomain's first user).
  using DomainInit = std::function<Status(Fs& fs, const std::string& domain_dir)>;
  // kInvalidArgument if the id does not match ^\w{3,}$ (quoting the pattern);
  // kContentAlreadyExists if it exists; the error of `init`, if it fails (no domain is
  // left then).
  Result<DomainInfo> CreateDomain(const std::string& domain_id, const std::string& description,
                                  const DomainInit& init = {});
  // Deletes the domain and all its repositories. kObjectNotFound if missing.
  Status DeleteDomain(const std::string& domain_id);

  // Repositories of a domain in id order.
  Result<std::vector<RepositoryInfo>> ListRepositories(const std::string& domain_id);
  // kInvalidArgument for an id not matching ^[a-zA-Z0-9-]{3,}$ or a variant other than
  // "A"/"B"; kContentAlreadyExists if it exists; kObjectNotFound if the domain does not.
  Result<RepositoryInfo> CreateRepository(const std::string& domain_id, const RepositoryInfo& info);
  Status DeleteRepository(const std::string& domain_id, const std::string& repository_id);
  // Forgets the repositories opened so far: each closes once its last user lets it go,
  // and GetRepository opens it again. For a data directory that was replaced.
  void CloseRepositories();
  // The open repository (opened once, shared). kObjectNotFound if missing.
  Result<std::shared_ptr<Repository>> GetRepository(const std::string& domain_id, const std::string& repository_id);

 private:
  // The Fs the data directory is read and written through: for the engine's parts that
  // keep files of their own beside the repositories (src/repo/store_fs.h), never for
  // callers of this class.
  friend struct repo::StoreFs;
  Fs& fs() { return *fs_; }

  Store(Fs& fs, std::unique_ptr<Fs> owned, StoreOptions options);
  Status RequireWritable() const;
  Status Init();  // the data directory's marker, when creating

  std::unique_ptr<Fs> owned_fs_;
  Fs* fs_;
  std::string dir_;
  StoreOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Repository>> open_;  // "domain/repository"
};

}  // namespace folio
