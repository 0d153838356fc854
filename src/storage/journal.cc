// Journaled multi-file changes; see journal.h and docs/STORAGE.md.
#include "storage/journal.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <unistd.h>

#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/layout.h"

namespace folio::storage {
namespace {

std::string NewTxId() {
  static std::atomic<uint64_t> counter{0};
  char buf[64];
  // Time first so that records sort in commit order.
  std::snprintf(buf, sizeof buf, "%015lld-%d-%06llu", static_cast<long long>(NowMs()), ::getpid(),
                static_cast<unsigned long long>(counter.fetch_add(1) % 1000000));
  return buf;
}

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

Json RecordOf(const std::vector<JournalAction>& actions) {
  Json list = Json::array();
  for (const JournalAction& a : actions) {
    if (a.op == JournalAction::Op::kRename) {
      list.push_back({{"op", "rename"}, {"from", a.from}, {"to", a.to}});
    } else {
      list.push_back({{"op", "remove"}, {"path", a.from}});
    }
  }
  return Json{{"format", 1}, {"actions", std::move(list)}};
}

}  // namespace

Transaction::Transaction(Fs& fs, std::string journal_dir) : fs_(fs), journal_dir_(std::move(journal_dir)) {}

Transaction::~Transaction() {
  if (committed_) return;
  for (auto it = temps_.rbegin(); it != temps_.rend(); ++it) (void)fs_.RemoveTree(*it);
}

Result<std::string> Transaction::Stage(const std::string& target, const std::string& temp) {
  temps_.push_back(temp);
  sync_before_.insert(ParentPath(temp));
  actions_.push_back({JournalAction::Op::kRename, temp, target});
  return temp;
}

Result<std::string> Transaction::Write(const std::string& target, std::string_view bytes) {
  FOLIO_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(fs_, target, bytes));
  return Stage(target, tmp);
}

Result<std::string> Transaction::WriteJson(const std::string& target, const Json& value) {
  return Write(target, SerializeJson(value));
}

Result<std::string> Transaction::Copy(const std::string& target, ReadableFile& src) {
  FOLIO_ASSIGN_OR_RETURN(std::string tmp, CopyToTempBeside(fs_, target, src));
  return Stage(target, tmp);
}

Result<std::string> Transaction::Adopt(const std::string& target, const std::string& file) {
  std::string tmp = TempPathBeside(target);
  FOLIO_RETURN_IF_ERROR(fs_.Rename(file, tmp));
  return Stage(target, tmp);
}

Result<std::string> Transaction::NewDir(const std::string& target) {
  std::string tmp = TempPathBeside(target);
  FOLIO_RETURN_IF_ERROR(fs_.MakeDir(tmp));
  sync_before_.insert(tmp);
  return Stage(target, tmp);
}

Status Transaction::NewSubdir(const std::string& path) {
  FOLIO_RETURN_IF_ERROR(fs_.MakeDir(path));
  sync_before_.insert(path);
  sync_before_.insert(ParentPath(path));
  return OkStatus();
}

Status Transaction::WriteNewFile(const std::string& path, std::string_view bytes) {
  FOLIO_ASSIGN_OR_RETURN(auto file, fs_.CreateNew(path));
  FOLIO_RETURN_IF_ERROR(file->Append(bytes));
  FOLIO_RETURN_IF_ERROR(file->Sync());
  FOLIO_RETURN_IF_ERROR(file->Close());
  sync_before_.insert(ParentPath(path));
  return OkStatus();
}

Status Transaction::CopyNewFile(const std::string& path, ReadableFile& src) {
  FOLIO_ASSIGN_OR_RETURN(auto file, fs_.CreateNew(path));
  FOLIO_RETURN_IF_ERROR(file->AppendFrom(src));
  FOLIO_RETURN_IF_ERROR(file->Sync());
  FOLIO_RETURN_IF_ERROR(file->Close());
  sync_before_.insert(ParentPath(path));
  return OkStatus();
}

Status Transaction::MoveNewFile(const std::string& from, const std::string& path) {
  FOLIO_RETURN_IF_ERROR(fs_.Rename(from, path));
  sync_before_.insert(ParentPath(path));
  sync_before_.insert(ParentPath(from));
  return OkStatus();
}

void Transaction::Rename(const std::string& from, const std::string& to) {
  actions_.push_back({JournalAction::Op::kRename, from, to});
}

void Transaction::Remove(const std::string& path) { actions_.push_back({JournalAction::Op::kRemove, path, ""}); }

Status Transaction::Commit() {
  if (actions_.empty()) {
    committed_ = true;
    return OkStatus();
  }
  // Staged files must be durable, and findable, before the record names them.
  for (const std::string& dir : sync_before_) FOLIO_RETURN_IF_ERROR(fs_.SyncDir(dir));
  FOLIO_RETURN_IF_ERROR(EnsureDir(fs_, journal_dir_));
  const std::string record = JoinPath(journal_dir_, RecordFileName(NewTxId()));
  // COMMIT POINT: the atomic rename inside WriteFileAtomically makes the record exist.
  FOLIO_RETURN_IF_ERROR(WriteFileAtomically(fs_, record, SerializeJson(RecordOf(actions_))));
  committed_ = true;
  std::set<std::string> touched;
  for (const JournalAction& a : actions_) FOLIO_RETURN_IF_ERROR(Apply(fs_, a, touched));
  FOLIO_RETURN_IF_ERROR(SyncAll(fs_, touched));
  // Not synced: if the removal is lost, recovery replays an idempotent record.
  return fs_.Remove(record);
}

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
