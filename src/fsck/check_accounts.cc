// Checks of each domain's users and groups (docs/STORAGE.md §11):
// every file decodes, ids do not clash, members exist, a domain with users has an
// administrator, and no change is left half done in the domain's commit log (or the
// journal of an older Folio).
#include "fsck/checks.h"
#include "fsck/facts.h"
#include "repo/acl/permission.h"
#include "storage/json_file.h"
#include "repo/acl/account_files.h"
#include "repo/acl/accounts.h"
#include "storage/journal.h"
#include "storage/layout.h"

namespace folio::fsck {
namespace {

// A domain's changes go through its commit log; a data directory written by an older
// Folio may still hold records of the format-1 journal.
void CheckDomainLog(Fs& fs, const std::string& domain, Problems& out) {
  const LogFact log = ReadLogFact(fs, storage::DomainCommitLayout(domain).LogFile());
  if (!log.error.empty()) {
    // Folio refuses every change of the domain's users and groups until it goes.
    out.push_back(MakeProblem(kLogUnreadable, log.path,
                              "unreadable commit log of users and groups: " + log.error +
                                  " (move it aside: Folio makes a new one; the changes it held are lost)"));
  } else if (log.pending > 0) {
    out.push_back(MakeProblem(kLogPending, log.path,
                              std::to_string(log.pending) + " committed change" + (log.pending == 1 ? "" : "s") +
                                  " of users or groups in the commit log '" + log.path + "' not known to be applied",
                              Act(Action::Kind::kCompleteLog, log.path)));
  }
  const std::string dir = storage::DomainJournalDir(domain);
  auto entries = fs.List(dir);
  if (!entries.ok()) return;
  for (const DirEntry& e : *entries) {
    const std::string path = storage::JoinPath(dir, e.name);
    if (storage::IsTempName(e.name)) {
      out.push_back(MakeProblem(kLeftoverTempFile, path, "temp file of an interrupted change '" + path + "'",
                                Act(Action::Kind::kRemove, path)));
    } else if (storage::IdOfRecordFileName(e.name)) {
      std::string unreadable;
      auto record = storage::ReadJsonFile(fs, path);
      if (!record.ok()) {
        unreadable = record.status().message();
      } else if (auto actions = storage::ParseJournalRecord(*record, path); !actions.ok()) {
        unreadable = actions.status().message();
      }
      if (unreadable.empty()) {
        out.push_back(MakeProblem(kDomainJournalPending, path,
                                  "uncompleted change of users or groups in journal record '" + path + "'",
                                  Act(Action::Kind::kCompleteJournal, path)));
      } else {
        // Recovery cannot complete a record it cannot read, and would refuse every later
        // change of the domain's users and groups: set it aside (as a repository's).
        out.push_back(MakeProblem(kDomainJournalPending, path,
                                  "unreadable journal record of users or groups: " + unreadable,
                                  Act(Action::Kind::kMoveToLostFound, path)));
      }
    }
  }
}

void CheckDomainAccounts(Fs& fs, const DomainFact& dom, Problems& out) {
  const std::string users_dir = storage::UsersDir(dom.dir);
  auto read = acl::ReadAccountFiles(fs, dom.dir);
  if (!read.ok()) {
    out.push_back(MakeProblem(kUserRecordInvalid, users_dir, read.status().message()));
    return;
  }
  const acl::AccountFiles& files = *read;
  for (const std::string& temp : files.temps) {
    out.push_back(MakeProblem(kLeftoverTempFile, temp, "temp file of an interrupted change '" + temp + "'",
                              Act(Action::Kind::kRemove, temp)));
  }
  for (const acl::BadAccountFile& bad : files.bad) {
    const bool user = bad.path.starts_with(users_dir + "/");
    out.push_back(MakeProblem(user ? kUserRecordInvalid : kGroupRecordInvalid, bad.path, bad.message));
  }
  const acl::Principals principals(files.users, files.groups);
  for (const acl::UserRecord& u : files.users) {
    const std::string path = storage::UserFile(dom.dir, u.id);
    if (principals.FindGroup(u.id) != nullptr) {
      out.push_back(MakeProblem(kPrincipalIdClash, path,
                                "user '" + u.id + "' has the id of group '" + u.id + "': ACL entries and members " +
                                    "naming it are ambiguous"));
    } else if (Status s = acl::CheckNewUserId(u.id); !s.ok()) {
      out.push_back(MakeProblem(kPrincipalIdClash, path, "user '" + u.id + "': " + s.message()));
    }
  }
  for (const acl::GroupRecord& g : files.groups) {
    const std::string path = storage::GroupFile(dom.dir, g.id);
    if (g.id == acl::kUserGroup) {
      out.push_back(MakeProblem(kGroupRecordInvalid, path,
                                "'" + path + "': the built-in group 'user' has no file (its members are every user); "
                                "Folio ignores it"));
      continue;
    }
    for (const std::string& m : g.members) {
      if (m == g.id || !principals.Exists(m)) {
        out.push_back(MakeProblem(kGroupMemberUnknown, path,
                                  "group '" + g.id + "' lists '" + m + "', " +
                                      (m == g.id ? "itself" : "no user or group of domain '" + dom.dir + "'") +
                                      " (Folio ignores the member)"));
      }
    }
  }
  if (principals.has_users() && principals.UsersIn(acl::kAdminGroup).empty()) {
    out.push_back(MakeProblem(kDomainAdminMissing, storage::GroupFile(dom.dir, acl::kAdminGroup),
                              "domain '" + dom.dir + "' has users but no administrator: no user is in group 'admin'"));
  }
}

}  // namespace

Problems CheckObjectAcls(Fs& fs, const RepoFacts& f) {
  Problems out;
  const std::string domain = f.base.substr(0, f.base.find('/'));
  auto files = acl::ReadAccountFiles(fs, domain);
  if (!files.ok()) return out;  // user-record-invalid says why
  const acl::Principals principals(files->users, files->groups);
  const auto known = [&](const std::string& id) {
    return id == acl::kAnyone || id == acl::kAnonymousPrincipal || acl::IsBuiltInGroup(id) ||
           principals.Exists(id);
  };
  for (const TypedRecord& t : f.typed) {
    auto record = storage::ReadJsonFile(fs, t.record);
    if (!record.ok() || !record->is_object()) continue;  // the record checks report it
    const auto entries = record->find("acl");
    if (entries == record->end()) continue;
    if (!entries->is_array()) {
      out.push_back(MakeProblem(kAclEntryInvalid, t.record,
                                "'" + t.record + "': \"acl\" is not an array (Folio reads no entry from it)"));
      continue;
    }
    for (const storage::Json& e : *entries) {
      const auto principal = e.is_object() ? e.find("principal") : e.end();
      const auto permissions = e.is_object() ? e.find("permissions") : e.end();
      bool valid = e.is_object() && principal != e.end() && principal->is_string() &&
                   !principal->get_ref<const std::string&>().empty() &&
                   permissions != e.end() && permissions->is_array() && !permissions->empty();
      if (valid) {
        for (const storage::Json& p : *permissions) valid = valid && p.is_string() && acl::ParsePermission(p.get<std::string>()).has_value();
      }
      if (!valid) {
        out.push_back(MakeProblem(kAclEntryInvalid, t.record,
                                  "'" + t.record + "': ACL entry " + e.dump() +
                                      " is not {\"principal\": id, \"permissions\": [cmis:read|cmis:write|cmis:all]} "
                                      "(Folio ignores what it cannot read of it)"));
        continue;
      }
      const std::string id = principal->get<std::string>();
      if (!principals.has_users() || known(id)) continue;
      out.push_back(MakeProblem(kAclPrincipalUnknown, t.record,
                                "'" + t.record + "': ACL entry for '" + id + "', no user or group of domain '" + domain +
                                    "' (it grants nothing now, and would grant to a user or group made with that id)"));
    }
  }
  return out;
}

Problems CheckAccounts(Fs& fs, const DataFacts& d) {
  Problems out;
  for (const DomainFact& dom : d.domains) {
    if (!dom.meta) continue;  // not a domain Folio can use: domain-meta-invalid says so
    CheckDomainLog(fs, dom.dir, out);
    CheckDomainAccounts(fs, dom, out);
  }
  return out;
}

}  // namespace folio::fsck
