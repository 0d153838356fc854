// Recovery of the journal of older data directories; see journal.h and docs/STORAGE.md §8.7.
#include "storage/journal.h"

#include <algorithm>
#include <set>

#include "storage/layout.h"

namespace folio::storage {
namespace {

// Directories touched by earlier actions that lie in a renamed directory now live
// under its new name: sync them there.
void Remap(std::set<std::string>& touched, const std::string& from, const std::string& to) {
  std::set<std::string> out;
  for (const std::string& p : touched) {
    if (p == from) {
      out.insert(to);
    } else if (p.size() > from.size() && p.compare(0, from.size(), from) == 0 && p[from.size()] == '/') {
      out.insert(to + p.substr(from.size()));
    } else {
      out.insert(p);
    }
  }
  touched.swap(out);
}

Status Apply(Fs& fs, const JournalAction& a, std::set<std::string>& touched) {
  if (a.op == JournalAction::Op::kRename) {
    auto st = fs.Stat(a.from);
    if (!st.ok()) {
      // Already moved by an earlier, interrupted apply: nothing to do.
      if (IsMissing(st.status())) return OkStatus();
      return st.status();
    }
    const std::string from_dir = ParentPath(a.from), to_dir = ParentPath(a.to);
    if (from_dir == to_dir) {
      FOLIO_RETURN_IF_ERROR(fs.Rename(a.from, a.to));
      Remap(touched, a.from, a.to);
      touched.insert(from_dir);
      return OkStatus();
    }
    // Across directories the rename is two directory changes, and a filesystem may
    // make one durable without the other (docs/STORAGE.md §8): the
    // destination is synced first, so that a power loss between the two syncs leaves
    // two names of the file (completed here on recovery), never none.
    auto to = fs.Stat(a.to);
    if (to.ok() && to->type != FileType::kDirectory && SameInode(*to, *st)) {
      FOLIO_RETURN_IF_ERROR(fs.Remove(a.from));
      return fs.SyncDir(from_dir);
    }
    FOLIO_RETURN_IF_ERROR(fs.Rename(a.from, a.to));
    Remap(touched, a.from, a.to);
    FOLIO_RETURN_IF_ERROR(fs.SyncDir(to_dir));
    return fs.SyncDir(from_dir);
  }
  FOLIO_RETURN_IF_ERROR(fs.RemoveTree(a.from));
  // Nothing below a removed path needs syncing any more.
  std::set<std::string> kept;
  for (const std::string& p : touched) {
    if (p != a.from && p.rfind(a.from + "/", 0) != 0) kept.insert(p);
  }
  touched.swap(kept);
  touched.insert(ParentPath(a.from));
  return OkStatus();
}

Status SyncAll(Fs& fs, const std::set<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    Status s = fs.SyncDir(dir);
    // A directory removed by a later record (during recovery) has nothing to sync.
    if (!s.ok() && !IsMissing(s)) return s;
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<JournalAction>> ParseJournalRecord(const Json& record, const std::string& what) {
  std::vector<JournalAction> out;
  if (!record.contains("actions") || !record["actions"].is_array()) {
    return StorageError("journal record '" + what + "' has no actions list");
  }
  for (const Json& a : record["actions"]) {
    if (!a.is_object() || !a.contains("op") || !a["op"].is_string()) {
      return StorageError("journal record '" + what + "' has a malformed action");
    }
    const std::string op = a["op"];
    if (op == "rename" && a.value("from", Json()).is_string() && a.value("to", Json()).is_string()) {
      out.push_back({JournalAction::Op::kRename, a["from"], a["to"]});
    } else if (op == "remove" && a.value("path", Json()).is_string()) {
      out.push_back({JournalAction::Op::kRemove, a["path"], ""});
    } else {
      return StorageError("journal record '" + what + "' has an unknown action '" + op + "'");
    }
  }
  return out;
}

Result<int> RecoverJournal(Fs& fs, const std::string& journal_dir) {
  auto entries = fs.List(journal_dir);
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return 0;
    return entries.status();
  }
  std::vector<std::string> records;
  for (const DirEntry& e : *entries) {
    if (IsTempName(e.name)) {
      // A record that was being written when the process died: not committed.
      FOLIO_RETURN_IF_ERROR(fs.RemoveTree(JoinPath(journal_dir, e.name)));
    } else if (IdOfRecordFileName(e.name)) {
      records.push_back(e.name);
    }
  }
  std::sort(records.begin(), records.end());
  int done = 0;
  for (const std::string& name : records) {
    const std::string path = JoinPath(journal_dir, name);
    FOLIO_ASSIGN_OR_RETURN(Json record, ReadJsonFile(fs, path));
    FOLIO_ASSIGN_OR_RETURN(std::vector<JournalAction> actions, ParseJournalRecord(record, path));
    std::set<std::string> touched;
    for (const JournalAction& a : actions) FOLIO_RETURN_IF_ERROR(Apply(fs, a, touched));
    FOLIO_RETURN_IF_ERROR(SyncAll(fs, touched));
    FOLIO_RETURN_IF_ERROR(fs.Remove(path));
    ++done;
  }
  return done;
}

}  // namespace folio::storage
