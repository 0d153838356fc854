// DomainAccounts and AccountRegistry; see accounts.h.
#include "repo/acl/accounts.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "repo/store_fs.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/layout.h"

namespace folio::acl {
namespace {

// A directory's identity; nullopt when it does not exist. Another failure: an error.
Result<std::optional<FileStat>> StatDir(Fs& fs, const std::string& path) {
  auto st = fs.IdentityStat(path);
  if (st.ok()) return std::optional<FileStat>(*st);
  if (IsMissing(st.status())) return std::optional<FileStat>();
  return st.status();
}

Status WriteNewSynced(Fs& fs, const std::string& path, const Json& value) {
  FOLIO_ASSIGN_OR_RETURN(auto f, fs.CreateNew(path));
  FOLIO_RETURN_IF_ERROR(f->Append(storage::SerializeJson(value)));
  FOLIO_RETURN_IF_ERROR(f->Sync());
  return f->Close();
}

std::vector<std::string> Deduplicated(std::vector<std::string> ids) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::string& id : ids) {
    if (seen.insert(id).second) out.push_back(std::move(id));
  }
  return out;
}

}  // namespace

struct DomainAccounts::Snapshot {
  std::shared_ptr<const Principals> principals;
  // Stat'ed on every use: the domain's commit log (every change Folio makes, in any
  // process, writes a record into it, and a checkpoint its header: its mtime moves),
  // or its .folio while there is no log (making one changes it). One stat that
  // succeeds, whatever the domain holds.
  std::string sentinel_path;
  FileStat sentinel;
  // Stat'ed once a second, for edits by hand: .folio, users/, groups/ and every file read.
  std::vector<std::pair<std::string, FileStat>> watched;
  bool racy = false;
  mutable std::atomic<int64_t> watched_checked_ms{0};
};

// The records being changed, and which files must be written or removed.
struct DomainAccounts::Draft {
  std::string domain;
  int64_t now_ms = 0;
  std::map<std::string, UserRecord, std::less<>> users;
  std::map<std::string, GroupRecord, std::less<>> groups;
  std::set<std::string> users_touched, groups_touched;

  bool Exists(std::string_view id) const {
    return id == kUserGroup || users.count(id) > 0 || groups.count(id) > 0;
  }
  void PutUser(UserRecord u) {
    users_touched.insert(u.id);
    std::string id = u.id;
    users[id] = std::move(u);
  }
  void PutGroup(GroupRecord g) {
    groups_touched.insert(g.id);
    std::string id = g.id;
    groups[id] = std::move(g);
  }
  void DropUser(std::string_view id) {
    users_touched.insert(std::string(id));
    users.erase(users.find(id));
    DropMembership(id);
  }
  void DropGroup(std::string_view id) {
    auto it = groups.find(id);
    if (it == groups.end()) return;
    groups_touched.insert(std::string(id));
    groups.erase(it);
    DropMembership(id);
  }
  // Takes `id` out of every group that lists it.
  void DropMembership(std::string_view id) {
    for (auto& [gid, g] : groups) {
      auto it = std::find(g.members.begin(), g.members.end(), id);
      if (it == g.members.end()) continue;
      g.members.erase(it);
      g.modified_ms = now_ms;
      groups_touched.insert(gid);
    }
  }
  // Checks a new member list for group `group_id`. kInvalidArgument naming the member.
  Status CheckMembers(std::string_view group_id, const std::vector<std::string>& members) const {
    for (const std::string& m : members) {
      FOLIO_RETURN_IF_ERROR(CheckPrincipalId(m, "member"));
      if (m == group_id) return InvalidArgument("group '" + m + "' cannot be a member of itself");
      if (!Exists(m)) {
        return InvalidArgument("member '" + m + "' is no user or group of domain '" + domain + "'");
      }
    }
    return OkStatus();
  }
  // Sets the members of `group_id`, making the group when it has no record yet.
  void SetMembers(std::string_view group_id, std::vector<std::string> members) {
    GroupRecord g;
    if (auto it = groups.find(group_id); it != groups.end()) {
      g = it->second;
    } else {
      g.id = std::string(group_id);
      g.created_ms = now_ms;
    }
    g.members = std::move(members);
    g.modified_ms = now_ms;
    PutGroup(std::move(g));
  }
  Principals Build() const {
    std::vector<UserRecord> u;
    std::vector<GroupRecord> g;
    for (const auto& [id, r] : users) u.push_back(r);
    for (const auto& [id, r] : groups) g.push_back(r);
    return Principals(std::move(u), std::move(g));
  }
};

DomainAccounts::DomainAccounts(Fs& fs, std::string domain_dir, bool read_only)
    : fs_(fs), domain_(std::move(domain_dir)), read_only_(read_only) {}

DomainAccounts::~DomainAccounts() = default;

Result<storage::Committer*> DomainAccounts::Writer() {
  if (!committer_) {
    storage::CommitterOptions options;
    options.read_only = read_only_;
    auto made = std::make_unique<storage::Committer>(fs_, storage::DomainCommitLayout(domain_), options);
    FOLIO_RETURN_IF_ERROR(made->Open());
    committer_ = std::move(made);
  }
  return committer_.get();
}

Result<std::shared_ptr<const DomainAccounts::Snapshot>> DomainAccounts::Load() {
  const std::string meta_path = storage::DomainMetaDir(domain_);
  FOLIO_ASSIGN_OR_RETURN(std::optional<FileStat> meta, StatDir(fs_, meta_path));
  if (!meta) return ObjectNotFound("no domain '" + domain_ + "'");
  std::unique_ptr<FileLock> shared;
  // A domain nothing was ever committed to has no lock file (a writer makes it before
  // it writes anything) and no format-1 journal: nothing to recover, nobody to wait for.
  // It is read without making the lock file or the commit log, since a read writes
  // nothing to the data directory; if a writer made the lock file meanwhile, it is read
  // again the usual way (below).
  const bool never_written = !read_only_ && !Exists(fs_, storage::DomainLockFile(domain_)) &&
                             !Exists(fs_, storage::DomainJournalDir(domain_));
  if (!read_only_ && !never_written) {
    // A change a process that died committed but did not apply is applied first (once
    // per process: the committer's recovery), so no reader sees half of it; and the
    // files are read under the shared lock, which no change of another process holds
    // while it applies.
    FOLIO_RETURN_IF_ERROR(Writer().status());
    auto lock = fs_.Lock(storage::DomainLockFile(domain_), LockMode::kShared);
    if (lock.ok()) shared = std::move(*lock);
  }
  auto snap = std::make_shared<Snapshot>();
  // The sentinel first: a change made while the files are read shows in it next time.
  const std::string log_path = storage::DomainCommitLayout(domain_).LogFile();
  FOLIO_ASSIGN_OR_RETURN(std::optional<FileStat> log, StatDir(fs_, log_path));
  snap->sentinel_path = log ? log_path : meta_path;
  snap->sentinel = log ? *log : *meta;
  snap->watched.emplace_back(meta_path, *meta);
  for (const std::string& dir : {storage::UsersDir(domain_), storage::GroupsDir(domain_)}) {
    FOLIO_ASSIGN_OR_RETURN(std::optional<FileStat> st, StatDir(fs_, dir));
    if (st) snap->watched.emplace_back(dir, *st);
  }
  const bool has_domain_file = Exists(fs_, storage::DomainFile(domain_));
  if (!has_domain_file) return ObjectNotFound("no domain '" + domain_ + "'");
  FOLIO_ASSIGN_OR_RETURN(AccountFiles files, ReadAccountFiles(fs_, domain_));
  for (const FileStat& st : {snap->sentinel, *meta}) {
    // Changed this recently, it may change again unseen (storage::IsRacy): such a
    // snapshot is read again on its next use.
    if (storage::IsRacy(st.mtime_ns)) snap->racy = true;
  }
  if (never_written && Exists(fs_, storage::DomainLockFile(domain_))) return Load();
  for (auto& f : files.stats) snap->watched.push_back(std::move(f));
  snap->watched_checked_ms = storage::SteadyNowMs();
  snap->principals = std::make_shared<const Principals>(std::move(files.users), std::move(files.groups));
  return std::shared_ptr<const Snapshot>(std::move(snap));
}

bool DomainAccounts::Fresh(const Snapshot& s) {
  if (s.racy) return false;
  auto sentinel = fs_.IdentityStat(s.sentinel_path);
  if (!sentinel.ok() || !SameFileState(*sentinel, s.sentinel)) return false;
  const int64_t now = storage::SteadyNowMs();
  if (now - s.watched_checked_ms.load(std::memory_order_relaxed) < check_interval_ms_.load()) return true;
  for (const auto& [path, st] : s.watched) {
    auto current = fs_.IdentityStat(path);
    if (!current.ok() || !SameFileState(*current, st)) return false;
  }
  s.watched_checked_ms.store(now, std::memory_order_relaxed);
  return true;
}

Result<std::shared_ptr<const Principals>> DomainAccounts::Current() {
  std::shared_ptr<const Snapshot> seen;
  {
    std::lock_guard<std::mutex> g(mu_);
    seen = current_;
  }
  if (seen && Fresh(*seen)) return seen->principals;
  std::lock_guard<std::mutex> loading(load_mu_);
  {
    std::lock_guard<std::mutex> g(mu_);
    // Another thread may have loaded it while this one waited.
    if (current_ && current_ != seen && Fresh(*current_)) return current_->principals;
  }
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const Snapshot> loaded, Load());
  std::lock_guard<std::mutex> g(mu_);
  current_ = loaded;
  return loaded->principals;
}

Status DomainAccounts::Change(const std::function<Status(Draft&)>& edit) {
  if (read_only_) return PermissionDenied("the server is read-only");
  std::lock_guard<std::mutex> loading(load_mu_);
  if (!Exists(fs_, storage::DomainFile(domain_))) return ObjectNotFound("no domain '" + domain_ + "'");
  FOLIO_ASSIGN_OR_RETURN(storage::Committer * committer, Writer());
  // Staged with the other writers excluded, from the records as they are on disk; the
  // committer may stage again (so `edit` works on a fresh draft each time).
  Status s = committer->Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(AccountFiles files, ReadAccountFiles(fs_, domain_));
    Draft d;
    d.domain = domain_;
    d.now_ms = storage::NowMs();
    for (UserRecord& u : files.users) d.users.emplace(u.id, std::move(u));
    for (GroupRecord& g : files.groups) d.groups.emplace(g.id, std::move(g));
    const bool had_admin = !d.Build().UsersIn(kAdminGroup).empty();
    FOLIO_RETURN_IF_ERROR(edit(d));
    if (had_admin && d.Build().UsersIn(kAdminGroup).empty()) {
      return Constraint("domain '" + domain_ + "' would be left without an administrator: group '" +
                        std::string(kAdminGroup) + "' must keep at least one user");
    }
    if (d.users_touched.empty() && d.groups_touched.empty()) return OkStatus();
    change.MakeDir(storage::UsersDir(domain_));
    change.MakeDir(storage::GroupsDir(domain_));
    for (const std::string& id : d.users_touched) {
      auto it = d.users.find(id);
      if (it != d.users.end()) {
        change.PutJson(storage::UserFile(domain_, id), UserToJson(it->second));
      } else {
        change.Remove(storage::UserFile(domain_, id));
      }
    }
    for (const std::string& id : d.groups_touched) {
      auto it = d.groups.find(id);
      if (it != d.groups.end()) {
        change.PutJson(storage::GroupFile(domain_, id), GroupToJson(it->second));
      } else {
        change.Remove(storage::GroupFile(domain_, id));
      }
    }
    return OkStatus();
  });
  // Whatever happened, the next Current() reads what is on disk now.
  auto loaded = s.ok() ? Load() : Result<std::shared_ptr<const Snapshot>>(s);
  std::lock_guard<std::mutex> g(mu_);
  if (loaded.ok()) {
    current_ = *loaded;
  } else {
    current_.reset();
  }
  return s;
}

Status CheckNewUserId(std::string_view user_id) {
  FOLIO_RETURN_IF_ERROR(CheckPrincipalId(user_id, "user id"));
  if (IsBuiltInGroup(user_id)) {
    return Constraint("user id '" + std::string(user_id) + "' is reserved: it names a built-in group ('admin', 'user', "
                      "'repository_<id>')");
  }
  if (user_id == kAnonymousUser) {
    return Constraint("user id 'anonymous' is reserved: it names the callers of a domain without users");
  }
  return OkStatus();
}

Result<UserRecord> DomainAccounts::CreateUser(UserRecord user) {
  FOLIO_RETURN_IF_ERROR(CheckNewUserId(user.id));
  UserRecord made;
  FOLIO_RETURN_IF_ERROR(Change([&](Draft& d) -> Status {
    if (d.users.count(user.id)) return ContentAlreadyExists("user '" + user.id + "' exists");
    if (d.groups.count(user.id)) {
      return ContentAlreadyExists("id '" + user.id + "' is taken by the group '" + user.id + "'");
    }
    const bool first = d.users.empty();
    made = user;
    made.created_ms = made.modified_ms = d.now_ms;
    d.PutUser(made);
    if (first) {
      std::vector<std::string> admins = d.groups.count(kAdminGroup) ? d.groups.find(kAdminGroup)->second.members
                                                                    : std::vector<std::string>();
      admins.push_back(made.id);
      d.SetMembers(kAdminGroup, Deduplicated(std::move(admins)));
    }
    return OkStatus();
  }));
  return made;
}

Result<UserRecord> DomainAccounts::UpdateUser(std::string_view user_id, const UserChanges& changes) {
  UserRecord updated;
  FOLIO_RETURN_IF_ERROR(Change([&](Draft& d) -> Status {
    auto it = d.users.find(user_id);
    if (it == d.users.end()) {
      return ObjectNotFound("no user '" + std::string(user_id) + "' in domain '" + domain_ + "'");
    }
    UserRecord u = it->second;
    if (changes.display_name) u.display_name = *changes.display_name;
    if (changes.password_hash) u.password_hash = *changes.password_hash;
    if (changes.api_key_hash) u.api_key_hash = *changes.api_key_hash;
    u.modified_ms = d.now_ms;
    updated = u;
    d.PutUser(std::move(u));
    return OkStatus();
  }));
  return updated;
}

Status DomainAccounts::DeleteUser(std::string_view user_id) {
  return Change([&](Draft& d) -> Status {
    if (!d.users.count(user_id)) {
      return ObjectNotFound("no user '" + std::string(user_id) + "' in domain '" + domain_ + "'");
    }
    d.DropUser(user_id);
    return OkStatus();
  });
}

Result<GroupRecord> DomainAccounts::CreateGroup(std::string_view group_id, std::vector<std::string> members) {
  FOLIO_RETURN_IF_ERROR(CheckPrincipalId(group_id, "group id"));
  const std::string id(group_id);
  if (group_id.starts_with(kRepositoryGroupPrefix)) {
    return Constraint("group id '" + id + "' is reserved: ids starting with '" + std::string(kRepositoryGroupPrefix) +
                      "' are repositories' groups, made with the repository");
  }
  members = Deduplicated(std::move(members));
  GroupRecord made;
  FOLIO_RETURN_IF_ERROR(Change([&](Draft& d) -> Status {
    if (group_id == kAdminGroup || group_id == kUserGroup || d.groups.count(group_id)) {
      return ContentAlreadyExists("group '" + id + "' exists");
    }
    if (d.users.count(group_id)) return ContentAlreadyExists("id '" + id + "' is taken by the user '" + id + "'");
    FOLIO_RETURN_IF_ERROR(d.CheckMembers(group_id, members));
    d.SetMembers(group_id, members);
    made = d.groups.find(group_id)->second;
    return OkStatus();
  }));
  return made;
}

Result<GroupRecord> DomainAccounts::UpdateGroup(std::string_view group_id, std::vector<std::string> members) {
  FOLIO_RETURN_IF_ERROR(CheckPrincipalId(group_id, "group id"));
  const std::string id(group_id);
  if (group_id == kUserGroup) {
    return Constraint("the members of the built-in group 'user' are every user of the domain; they cannot be set");
  }
  members = Deduplicated(std::move(members));
  GroupRecord updated;
  FOLIO_RETURN_IF_ERROR(Change([&](Draft& d) -> Status {
    if (!d.groups.count(group_id) && !IsBuiltInGroup(group_id)) {
      return ObjectNotFound("no group '" + id + "' in domain '" + domain_ + "'");
    }
    FOLIO_RETURN_IF_ERROR(d.CheckMembers(group_id, members));
    d.SetMembers(group_id, members);
    updated = d.groups.find(group_id)->second;
    return OkStatus();
  }));
  return updated;
}

Status DomainAccounts::DeleteGroup(std::string_view group_id) {
  const std::string id(group_id);
  if (IsBuiltInGroup(group_id)) return Constraint("group '" + id + "' is built in and cannot be deleted");
  return Change([&](Draft& d) -> Status {
    if (!d.groups.count(group_id)) return ObjectNotFound("no group '" + id + "' in domain '" + domain_ + "'");
    d.DropGroup(group_id);
    return OkStatus();
  });
}

Status DomainAccounts::ResetRepositoryGroup(std::string_view repository_id, std::vector<std::string> members) {
  const std::string id = RepositoryGroup(repository_id);
  members = Deduplicated(std::move(members));
  return Change([&](Draft& d) -> Status {
    FOLIO_RETURN_IF_ERROR(d.CheckMembers(id, members));
    d.DropGroup(id);  // what a deleted repository of this id left, memberships included
    if (!members.empty()) d.SetMembers(id, members);
    return OkStatus();
  });
}

Status DomainAccounts::RemoveRepositoryGroup(std::string_view repository_id) {
  const std::string id = RepositoryGroup(repository_id);
  return Change([&](Draft& d) -> Status {
    d.DropGroup(id);
    return OkStatus();
  });
}

AccountRegistry::AccountRegistry(Store& store, bool read_only)
    : AccountRegistry(repo::StoreFs::Of(store), read_only) {}

Result<std::shared_ptr<DomainAccounts>> AccountRegistry::For(std::string_view domain_id) {
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = domains_.find(domain_id);
    if (it != domains_.end()) return it->second;
  }
  // Only existing domains are remembered: requests for made-up names cost no memory.
  // A domain id is a single path segment of word characters (Store's pattern).
  const bool plausible = domain_id.size() >= 3 && std::all_of(domain_id.begin(), domain_id.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                         });
  if (!plausible || !Exists(fs_, storage::DomainFile(domain_id))) {
    return ObjectNotFound("no domain '" + std::string(domain_id) + "'");
  }
  std::lock_guard<std::mutex> g(mu_);
  auto& slot = domains_[std::string(domain_id)];
  if (!slot) slot = std::make_shared<DomainAccounts>(fs_, std::string(domain_id), read_only_);
  return slot;
}

void AccountRegistry::Forget(std::string_view domain_id) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = domains_.find(domain_id);
  if (it != domains_.end()) domains_.erase(it);
}

Status WriteFirstUser(Fs& fs, const std::string& domain_dir, UserRecord user) {
  FOLIO_RETURN_IF_ERROR(CheckNewUserId(user.id));
  user.created_ms = user.modified_ms = storage::NowMs();
  GroupRecord admins{std::string(kAdminGroup), {user.id}, user.created_ms, user.created_ms};
  const std::string users = storage::UsersDir(domain_dir);
  const std::string groups = storage::GroupsDir(domain_dir);
  FOLIO_RETURN_IF_ERROR(fs.MakeDir(users));
  FOLIO_RETURN_IF_ERROR(fs.MakeDir(groups));
  FOLIO_RETURN_IF_ERROR(WriteNewSynced(fs, storage::UserFile(domain_dir, user.id), UserToJson(user)));
  FOLIO_RETURN_IF_ERROR(WriteNewSynced(fs, storage::GroupFile(domain_dir, kAdminGroup), GroupToJson(admins)));
  FOLIO_RETURN_IF_ERROR(fs.SyncDir(users));
  FOLIO_RETURN_IF_ERROR(fs.SyncDir(groups));
  return fs.SyncDir(storage::DomainMetaDir(domain_dir));
}

}  // namespace folio::acl
