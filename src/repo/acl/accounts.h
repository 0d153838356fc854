// A domain's users and groups on disk (account_files.h) behind one object per domain:
// the current snapshot for requests (kept in memory, revalidated with one stat, so an
// authenticated request reads no file), and the changes, each checked against the
// rules of docs/API.md §11.1 and committed once.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "folio/fs.h"
#include "folio/status.h"
#include "folio/store.h"
#include "repo/acl/account_files.h"
#include "repo/acl/principals.h"
#include "storage/committer.h"

namespace folio::acl {

// What updateUser changes; fields left empty stay as they are.
struct UserChanges {
  std::optional<std::string> display_name;
  std::optional<std::string> password_hash;  // secrets.h HashPassword
  std::optional<std::string> api_key_hash;   // secrets.h HashApiKey
};

class DomainAccounts {
 public:
  // `domain_dir` is the domain's directory (its id). Reads nothing yet.
  DomainAccounts(Fs& fs, std::string domain_dir, bool read_only);
  ~DomainAccounts();

  // The current users and groups. From memory while the domain's commit log is as it
  // was when they were read (one stat: every change Folio makes, in any process, writes
  // a record there; before the first change, .folio, which making the log changes);
  // read again otherwise, and when the once-a-second check of .folio, users/, groups/
  // and each file finds an edit made by hand. A writer completes, on first use, the
  // changes a process that died left in the log. Thread-safe.
  // Errors: kObjectNotFound if the domain does not exist (any more); kStorage.
  Result<std::shared_ptr<const Principals>> Current();

  // How often Current() looks for edits by hand (1 s); tests set 0.
  void SetCheckIntervalForTest(int64_t ms) { check_interval_ms_ = ms; }

  // --- Changes. Each goes through the domain's storage::Committer (the domain's lock,
  // shared with other processes; a change an interrupted process left completed
  // first), works on the records as they are on disk, and commits them as one CRC'd
  // record of the domain's commit log (docs/STORAGE.md §11): after a crash a change is
  // all there or not at all. The snapshot Current() returns afterwards has the change.
  // Thread-safe. Errors besides those listed: kPermissionDenied on a read-only store;
  // kStorage (the disk failed: nothing changed, or the next writer completes it).

  // A new user (id, display name and hashes from `user`; times set here). The
  // domain's first user also becomes a member of `admin`.
  // kInvalidArgument for an id not matching the pattern; kContentAlreadyExists if a
  // user or a group has that id; kConstraint for the ids of built-in groups ("admin",
  // "user", "repository_...") and "anonymous" (CheckNewUserId).
  Result<UserRecord> CreateUser(UserRecord user);
  // kObjectNotFound if there is no such user.
  Result<UserRecord> UpdateUser(std::string_view user_id, const UserChanges& changes);
  // Removes the user and its membership in every group. kObjectNotFound; kConstraint
  // if that would leave the domain without an administrator.
  Status DeleteUser(std::string_view user_id);

  // A new custom group. kInvalidArgument for a bad id or member id, or a member that is
  // no user or group of the domain (or the group itself); kContentAlreadyExists if a
  // group (built-in ones included) or a user has that id; kConstraint for ids starting
  // with "repository_" (reserved for repositories).
  Result<GroupRecord> CreateGroup(std::string_view group_id, std::vector<std::string> members);
  // Replaces the members (duplicates dropped). "repository_<id>" is created if it has no
  // file yet: the caller checks the repository exists. kObjectNotFound for another
  // unknown group; kConstraint for "user" (its members are every user) or when no
  // administrator would be left; kInvalidArgument as for CreateGroup.
  Result<GroupRecord> UpdateGroup(std::string_view group_id, std::vector<std::string> members);
  // Removes a custom group and its membership in other groups. kConstraint for
  // built-in groups, or when no administrator would be left; kObjectNotFound.
  Status DeleteGroup(std::string_view group_id);

  // For createRepository: repository_<id> holds exactly `members` (none: no file),
  // replacing whatever a deleted repository of that id left.
  Status ResetRepositoryGroup(std::string_view repository_id, std::vector<std::string> members);
  // For deleteRepository: repository_<id> goes, with its membership in other groups.
  Status RemoveRepositoryGroup(std::string_view repository_id);

 private:
  struct Snapshot;
  struct Draft;

  Result<std::shared_ptr<const Snapshot>> Load();
  bool Fresh(const Snapshot& s);
  Status Change(const std::function<Status(Draft&)>& edit);
  // The domain's committer, made and opened (recovery) on first use; requires load_mu_.
  Result<storage::Committer*> Writer();

  Fs& fs_;
  const std::string domain_;
  const bool read_only_;
  std::mutex mu_;       // guards current_
  std::mutex load_mu_;  // one load (or change) at a time
  std::shared_ptr<const Snapshot> current_;
  std::unique_ptr<storage::Committer> committer_;  // guarded by load_mu_
  std::atomic<int64_t> check_interval_ms_{1000};
};

// The DomainAccounts of every domain of a data directory, made on first use.
class AccountRegistry {
 public:
  AccountRegistry(Fs& fs, bool read_only) : fs_(fs), read_only_(read_only) {}
  // The accounts of the domains of `store`'s data directory (`store` must outlive this).
  AccountRegistry(Store& store, bool read_only);

  // The accounts of `domain_id`. Errors: kObjectNotFound if there is no such domain
  // (nothing is remembered for it, so unknown names cost no memory); kStorage.
  // Thread-safe.
  Result<std::shared_ptr<DomainAccounts>> For(std::string_view domain_id);
  // Forgets a deleted domain.
  void Forget(std::string_view domain_id);

 private:
  Fs& fs_;
  const bool read_only_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<DomainAccounts>, std::less<>> domains_;
};

// Writes the first user `user` and the group admin holding it into the directory
// `domain_dir` of a domain being built (Store::CreateDomain's DomainInit), synced: the
// domain then appears with its administrator in one step. Errors: kStorage.
Status WriteFirstUser(Fs& fs, const std::string& domain_dir, UserRecord user);

// Checks a new user's id: the pattern, and none of the ids reserved for groups or for
// anonymous callers. Errors: kInvalidArgument (pattern); kConstraint (reserved).
Status CheckNewUserId(std::string_view user_id);

}  // namespace folio::acl
