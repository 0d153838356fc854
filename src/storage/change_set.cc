// ChangeSet, its redo record, and its idempotent application; see change_set.h.
#include "storage/change_set.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "storage/atomic_write.h"
#include "storage/base64.h"
#include "storage/json_access.h"
#include "storage/json_text.h"
#include "storage/layout.h"
#include "storage/name_rules.h"
#include "storage/spare_pool.h"
#include "storage/utf8.h"

namespace folio::storage {
namespace {

const char* OpName(Action::Op op) {
  switch (op) {
    case Action::Op::kPut: return "put";
    case Action::Op::kMakeDir: return "mkdir";
    case Action::Op::kLink: return "link";
    case Action::Op::kRename: return "rename";
    case Action::Op::kRemove: return "remove";
    case Action::Op::kCopy: return "copy";
  }
  return "put";
}

std::optional<Action::Op> ParseOp(const std::string& s) {
  if (s == "put") return Action::Op::kPut;
  if (s == "mkdir") return Action::Op::kMakeDir;
  if (s == "link") return Action::Op::kLink;
  if (s == "rename") return Action::Op::kRename;
  if (s == "remove") return Action::Op::kRemove;
  return std::nullopt;
}

template <typename Integer>
void AppendNumber(std::string& out, Integer n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

void AppendGuard(std::string& out, const Guard& g) {
  switch (g.kind) {
    case Guard::Kind::kNone: out += "null"; return;
    case Guard::Kind::kInode:
      out += "{\"device\":";
      AppendNumber(out, g.device);
      out += ",\"inode\":";
      AppendNumber(out, g.inode);
      out.push_back('}');
      return;
    case Guard::Kind::kRecordId:
      out += "{\"file\":";
      AppendJsonString(out, g.file);
      out += ",\"field\":";
      AppendJsonString(out, g.field);
      out += ",\"value\":";
      AppendJsonString(out, g.value);
      out.push_back('}');
      return;
  }
  out += "null";
}

std::optional<Guard> DecodeGuard(const Json& j) {
  if (j.is_null()) return Guard::None();
  if (!j.is_object()) return std::nullopt;
  if (j.contains("inode")) {
    auto inode = UintField(j, "inode");
    auto device = UintField(j, "device");
    if (!inode || !device) return std::nullopt;
    Guard g;
    g.kind = Guard::Kind::kInode;
    g.inode = *inode;
    g.device = *device;
    return g;
  }
  auto file = StringField(j, "file"), field = StringField(j, "field"), value = StringField(j, "value");
  if (!file || !field || !value) return std::nullopt;
  return Guard::RecordId(*file, *field, *value);
}

// True when `path` is what `guard` expects (see Guard).
Result<bool> GuardHolds(Fs& fs, const std::string& path, const Guard& guard) {
  switch (guard.kind) {
    case Guard::Kind::kNone: return true;
    case Guard::Kind::kInode: {
      auto st = fs.Stat(path);
      if (!st.ok()) {
        if (IsMissing(st.status())) return false;
        return st.status();
      }
      return st->inode == guard.inode && st->device == guard.device;
    }
    case Guard::Kind::kRecordId: {
      auto j = ReadJsonFile(fs, JoinPath(path, guard.file));
      if (!j.ok()) {
        if (IsMissing(j.status())) return false;
        // An unreadable record cannot be ours: leave it for fsck.
        if (j.status().kind() == ErrorKind::kStorage && !j.status().cause()) return false;
        return j.status();
      }
      auto v = StringField(*j, guard.field.c_str());
      return v && *v == guard.value;
    }
  }
  return false;
}

// True when `s` failed because the directory that was to hold `path` is gone. When
// a record is applied again after a crash, a later change (already applied) may have
// removed or renamed that directory: what would go into it is gone with it, as it was
// the first time. (When a record is first applied, its staging made sure it exists.)
bool ParentGone(Fs& fs, const Status& s, const std::string& path) {
  if (!IsMissing(s)) return false;
  auto st = fs.Stat(ParentPath(path));
  return !st.ok() && IsMissing(st.status());
}

// Replaces `path` with the bytes through a temp file and a rename, so that readers see
// the old file or the new one; with `spares`, through a spare file swapped in when one
// is ready (the old file then kept as a spare if it is a record). No sync: the commit
// log holds the bytes.
Status PutFile(Fs& fs, const std::string& path, std::string_view bytes, SparePool* spares) {
  if (spares != nullptr) {
    FOLIO_ASSIGN_OR_RETURN(bool put, spares->Put(fs, path, bytes, SparePool::MayRetire(path, UINT64_MAX)));
    if (put) return OkStatus();
  }
  const std::string tmp = TempPathBeside(path);
  auto file = fs.CreateNew(tmp);
  if (!file.ok()) return ParentGone(fs, file.status(), path) ? OkStatus() : file.status();
  Status s = (*file)->Append(bytes);
  if (s.ok()) s = (*file)->Close();
  if (s.ok()) s = fs.Rename(tmp, path);
  if (!s.ok()) (void)fs.Remove(tmp);
  return s;
}

// Creates `path` holding the bytes, written where it stands: for a file no reader can
// reach yet (see Applier::InPlace). When `path` exists after all (the same change put it
// before), replaces it as PutFile does.
Status PutNewFile(Fs& fs, const std::string& path, std::string_view bytes) {
  auto file = fs.CreateNew(path);
  if (!file.ok()) {
    if (file.status().Is(std::errc::file_exists)) return PutFile(fs, path, bytes, nullptr);
    return ParentGone(fs, file.status(), path) ? OkStatus() : file.status();
  }
  Status s = (*file)->Append(bytes);
  if (s.ok()) s = (*file)->Close();
  // Nothing half-written is left behind; the record stays in the log and is applied again.
  if (!s.ok()) (void)fs.Remove(path);
  return s;
}

// Makes `path` another name of `source` by a link made beside it and renamed over it;
// with `is_new` (nothing expected at `path`: a directory this application created, or
// Action::expect_new) by one link, unless `path` is there after all. Missing: the source
// or the target's directory is gone.
Status LinkFile(Fs& fs, const std::string& source, const std::string& path, bool is_new) {
  if (is_new) {
    Status s = fs.Link(source, path);
    if (!s.Is(std::errc::file_exists)) return s;
  }
  const std::string tmp = TempPathBeside(path);
  Status s = fs.Link(source, tmp);
  if (!s.ok()) return s;
  s = fs.Rename(tmp, path);
  // Also when it succeeded: if `path` was already a name of `source` (a working copy's
  // content checked in unchanged becomes the version its file already shows), rename(2)
  // does nothing and leaves `tmp`.
  (void)fs.Remove(tmp);
  return s;
}

// Makes `value` what parsing its JSON text gives back: the parser reads a non-negative
// integer as unsigned. False when the text would not give it back (invalid UTF-8 is
// written replaced, a non-finite number as null): a reader must parse the text then.
bool AsParsed(Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!IsPlainAscii(it.key()) && !IsValidUtf8(it.key())) return false;
        if (!AsParsed(it.value())) return false;
      }
      return true;
    case Json::value_t::array:
      for (Json& v : value) {
        if (!AsParsed(v)) return false;
      }
      return true;
    case Json::value_t::string: {
      const auto& s = value.get_ref<const std::string&>();
      return IsPlainAscii(s) || IsValidUtf8(s);
    }
    case Json::value_t::number_integer: {
      const auto n = value.get<int64_t>();
      if (n >= 0) value = static_cast<uint64_t>(n);
      return true;
    }
    case Json::value_t::number_float: return std::isfinite(value.get<double>());
    case Json::value_t::binary:
    case Json::value_t::discarded: return false;
    default: return true;  // null, boolean, unsigned
  }
}

// What a Put writes: its bytes and, when known, the value they are the text of.
struct PutText {
  std::string bytes;
  std::shared_ptr<const Json> value;
};

// The JSON of a stamped Put with the identity of its stamped file in "file".
Result<PutText> Stamped(Fs& fs, const Action& a) {
  Json j = a.value ? *a.value : Json::parse(a.bytes, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return StorageError("stamped record for '" + a.path + "' is not a JSON object");
  auto st = fs.Stat(a.stamp);
  if (!st.ok()) {
    // The stamped file is gone (removed by hand, or by a later change being applied
    // again): nothing to describe; a later read notices and reports it.
    if (!IsMissing(st.status())) return st.status();
    j["file"] = Json{{"size", 0}, {"mtimeNs", 0}, {"inode", 0}};
  } else {
    j["file"] = Json{{"size", st->size}, {"mtimeNs", st->mtime_ns}, {"inode", st->inode}};
  }
  PutText out;
  out.bytes = SerializeJson(j);
  if (a.value && AsParsed(j["file"])) out.value = std::make_shared<const Json>(std::move(j));
  return out;
}

// Tells what the Put of `path` left there, with its identity, to
// options.on_json_written (a JSON record: `value` when the change carries it, else
// `bytes` parsed) and to the action's `written` (Action::written): one stat for both,
// and nothing when the file cannot be stat'ed now or is no longer of the size of
// `bytes` (a reader then reads it).
void ReportWritten(Fs& fs, const ApplyOptions& options, const Action& a, std::string_view bytes,
                   std::shared_ptr<const Json> value) {
  const bool json = options.on_json_written && a.json;
  if (!json && !a.written) return;
  auto st = fs.IdentityStat(a.path);
  if (!st.ok() || st->size != bytes.size()) return;
  if (json) {
    if (!value) {
      auto parsed = ParseStoredJson(bytes, a.path);
      if (parsed.ok()) value = std::make_shared<const Json>(std::move(*parsed));
    }
    if (value) options.on_json_written(a.path, *st, std::move(value));
  }
  if (a.written) a.written(*st);
}

// The same for a record linked into place from the upload file it was spilled to (a
// large Put, storage/committer.h): told only while the two names are one file.
void ReportLinked(Fs& fs, const ApplyOptions& options, const Action& a) {
  const bool json = options.on_json_written && a.json && a.value;
  if (!json && !a.written) return;
  auto st = fs.IdentityStat(a.path);
  auto source = fs.IdentityStat(a.source);
  if (!st.ok() || !source.ok() || st->inode != source->inode) return;
  if (json) options.on_json_written(a.path, *st, a.value);
  if (a.written) a.written(*st);
}

// One application of one change (ApplyChangeSet): the Fs it goes through (a view that
// holds the directories it resolves, when the Fs has one: one resolution per directory
// per change, not per action), and the directories it has created itself.
//
// A file put into a directory this application created is written in place (no temp
// name, no rename), unless it is the last file the change puts there. No reader can
// reach the earlier ones before that last one (a series' version records and content
// before its series.json): readers find a directory's object by the record the change
// writes last into it, which still appears whole by a rename. Applying the record again
// finds the directory there, not created by that application, and puts every file by
// a rename: it stays idempotent from any state a crash leaves.
class Applier {
 public:
  Applier(Fs& fs, const ChangeSet& change, const ApplyOptions& options, std::vector<std::string>* trashed)
      : held_(fs.HoldDirectories()),
        fs_(held_ ? *held_ : fs),
        options_(options),
        trashed_(trashed),
        replayed_(options.replayed) {
    const auto& actions = change.actions();
    for (size_t i = 0; i < actions.size(); ++i) {
      if (actions[i].op == Action::Op::kPut) last_put_[ParentPath(actions[i].path)] = i;
    }
  }

  Status Apply(const ChangeSet& change) {
    const auto& actions = change.actions();
    for (size_t i = 0; i < actions.size(); ++i) FOLIO_RETURN_IF_ERROR(ApplyOne(actions[i], i));
    return OkStatus();
  }

 private:
  bool InPlace(const Action& a, size_t index) const {
    const std::string parent = ParentPath(a.path);
    if (fresh_.count(parent) == 0) return false;
    auto last = last_put_.find(parent);
    return last != last_put_.end() && last->second != index;
  }

  // `path` is renamed or removed: what was created there is no longer this
  // application's alone, nor known to be there.
  void Forget(const std::string& path) {
    const auto at_or_below = [&](const std::string& dir) { return IsAtOrBelow(dir, path); };
    std::erase_if(fresh_, at_or_below);
    std::erase_if(dirs_, at_or_below);
  }

  Status Put(const Action& a, size_t index, std::string_view bytes, std::shared_ptr<const Json> value) {
    FOLIO_RETURN_IF_ERROR(InPlace(a, index) ? PutNewFile(fs_, a.path, bytes)
                                            : PutFile(fs_, a.path, bytes, options_.spares));
    Made(a.path);
    ReportWritten(fs_, options_, a, bytes, std::move(value));
    return OkStatus();
  }

  // Recovery: `path` was written by this recovery (ApplyOptions::replayed).
  void Made(const std::string& path) {
    if (replayed_ != nullptr) replayed_->insert(path);
  }
  // Recovery: `path`, or a directory above it, was written by this recovery.
  bool Replayed(const std::string& path) const {
    if (replayed_ == nullptr) return false;
    for (std::string p = path; !p.empty(); p = ParentPath(p)) {
      if (replayed_->count(p) > 0) return true;
    }
    return false;
  }
  // GuardHolds, and in recovery also an inode guard at a file this recovery made again
  // (a new inode for the same file: see ApplyOptions::replayed).
  Result<bool> Holds(const std::string& path, const Guard& guard) {
    FOLIO_ASSIGN_OR_RETURN(bool holds, GuardHolds(fs_, path, guard));
    if (holds || guard.kind != Guard::Kind::kInode || !Replayed(path)) return holds;
    return Exists(fs_, path);
  }

  // `path` is gone: a file unlinked, a directory renamed into the trash (or removed).
  Status RemoveExisting(const std::string& path) {
    Fs& fs = fs_;
    auto st = fs.Stat(path);
    if (!st.ok()) return IsMissing(st.status()) ? OkStatus() : st.status();
    Forget(path);
    if (replayed_ != nullptr) replayed_->erase(path);
    if (st->type == FileType::kDirectory && !options_.trash_dir.empty()) {
      // Gone from listings in one rename; the files are removed off the request path.
      Status made = fs.MakeDir(options_.trash_dir);
      if (!made.ok() && !made.Is(std::errc::file_exists)) return made;
      const std::string trash = JoinPath(options_.trash_dir, BaseName(TempPathBeside(path)));
      FOLIO_RETURN_IF_ERROR(fs.Rename(path, trash));
      if (trashed_ != nullptr) trashed_->push_back(trash);
      return OkStatus();
    }
    if (options_.spares != nullptr && st->type == FileType::kFile && SparePool::MayRetire(path, st->size)) {
      FOLIO_ASSIGN_OR_RETURN(bool kept, options_.spares->Retire(fs, path, *st));
      if (kept) return OkStatus();
    }
    Status s = st->type == FileType::kDirectory ? fs.RemoveTree(path) : fs.Remove(path);
    return IsMissing(s) ? OkStatus() : s;
  }

  Status ApplyOne(const Action& a, size_t index) {
    Fs& fs = fs_;
    switch (a.op) {
      case Action::Op::kPut: {
        if (a.stamp.empty()) return Put(a, index, a.bytes, a.value);
        FOLIO_ASSIGN_OR_RETURN(PutText stamped, Stamped(fs, a));
        return Put(a, index, stamped.bytes, std::move(stamped.value));
      }
      case Action::Op::kMakeDir: {
        // A change often makes one directory many times (the id index's, for each of
        // its documents): the first one did it.
        if (dirs_.count(a.path) > 0) return OkStatus();
        Status s = fs.MakeDir(a.path);
        if (s.ok()) {
          fresh_.insert(a.path);
          dirs_.insert(a.path);
          Made(a.path);
          return OkStatus();
        }
        if (s.Is(std::errc::file_exists)) {
          dirs_.insert(a.path);
          return OkStatus();
        }
        return ParentGone(fs, s, a.path) ? OkStatus() : s;
      }
      case Action::Op::kLink: {
        FOLIO_ASSIGN_OR_RETURN(bool holds, Holds(a.source, a.guard));
        if (!holds) return OkStatus();
        Status s = LinkFile(fs, a.source, a.path, a.expect_new || fresh_.count(ParentPath(a.path)) > 0);
        if (s.ok()) {
          Made(a.path);
          ReportLinked(fs, options_, a);
        }
        return IsMissing(s) ? OkStatus() : s;  // the source, or the target's directory, is gone
      }
      case Action::Op::kRename: {
        FOLIO_ASSIGN_OR_RETURN(bool holds, Holds(a.source, a.guard));
        if (!holds) return OkStatus();
        const bool replayed = Replayed(a.source);
        if (replayed) {
          // Made again by this recovery: if the target already holds what the guard
          // names, this rename took effect before (and later records left the target
          // as it is); the source made anew goes.
          FOLIO_ASSIGN_OR_RETURN(bool moved_before, GuardHolds(fs, a.path, a.guard));
          if (moved_before) return RemoveExisting(a.source);
        }
        Forget(a.source);
        Forget(a.path);
        Status s = fs.Rename(a.source, a.path);
        if (s.ok() && replayed) replayed_->insert(a.path);
        return IsMissing(s) ? OkStatus() : s;  // the source, or the target's directory, is gone
      }
      case Action::Op::kRemove: {
        FOLIO_ASSIGN_OR_RETURN(bool holds, Holds(a.path, a.guard));
        if (!holds) return OkStatus();
        return RemoveExisting(a.path);
      }
      case Action::Op::kCopy:
        return RuntimeError("a copy of '" + a.source + "' reached the commit log unprepared");
    }
    return OkStatus();
  }

  std::unique_ptr<Fs> held_;
  Fs& fs_;
  const ApplyOptions& options_;
  std::vector<std::string>* trashed_;
  std::set<std::string>* replayed_;
  std::unordered_set<std::string> fresh_;             // directories this application made
  std::unordered_set<std::string> dirs_;              // made, or found there, by a MakeDir
  std::unordered_map<std::string, size_t> last_put_;  // directory -> index of the last Put into it
};

}  // namespace

void ChangeEvent::AppendJson(std::string& out) const {
  out += "{\"token\":";
  AppendNumber(out, token);
  out += ",\"time\":";
  AppendNumber(out, time_ms);
  out += ",\"type\":";
  AppendJsonString(out, type);
  out += ",\"objectId\":";
  AppendJsonString(out, object_id);
  out += ",\"baseTypeId\":";
  AppendJsonString(out, base_type_id);
  out += ",\"typeId\":";
  AppendJsonString(out, type_id);
  if (type == "deleted") {
    out += ",\"readers\":[";
    for (size_t i = 0; i < readers.size(); ++i) {
      if (i > 0) out.push_back(',');
      AppendJsonString(out, readers[i]);
    }
    out.push_back(']');
  }
  out.push_back('}');
}

std::optional<ChangeEvent> ChangeEvent::Decode(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  auto token = UintField(j, "token");
  auto time = IntField(j, "time");
  auto type = StringField(j, "type");
  auto id = StringField(j, "objectId");
  if (!token || !time || !type || !id) return std::nullopt;
  ChangeEvent e;
  e.token = *token;
  e.time_ms = *time;
  e.type = *type;
  e.object_id = *id;
  e.base_type_id = StringField(j, "baseTypeId").value_or("");
  e.type_id = StringField(j, "typeId").value_or("");
  if (auto r = j.find("readers"); r != j.end() && r->is_array()) {
    for (const Json& p : *r) {
      if (p.is_string()) e.readers.push_back(p.get<std::string>());
    }
  }
  return e;
}

void ChangeSet::Put(std::string path, std::string bytes) {
  Action a;
  a.op = Action::Op::kPut;
  a.path = std::move(path);
  a.bytes = std::move(bytes);
  actions_.push_back(std::move(a));
}

void ChangeSet::Put(std::string path, std::string bytes, std::function<void(const FileStat&)> written) {
  Put(std::move(path), std::move(bytes));
  actions_.back().written = std::move(written);
}

void ChangeSet::PutJson(std::string path, Json value) {
  Put(std::move(path), SerializeJson(value));
  actions_.back().json = true;
  if (AsParsed(value)) actions_.back().value = std::make_shared<const Json>(std::move(value));
}

void ChangeSet::PutJsonStamped(std::string path, Json value, std::string stamped) {
  PutJson(std::move(path), std::move(value));
  actions_.back().stamp = std::move(stamped);
}

void ChangeSet::Add(Action::Op op, std::string path, std::string source, Guard guard) {
  Action a;
  a.op = op;
  a.path = std::move(path);
  a.source = std::move(source);
  a.guard = std::move(guard);
  actions_.push_back(std::move(a));
}

void ChangeSet::MakeDir(std::string path) { Add(Action::Op::kMakeDir, std::move(path), "", Guard::None()); }

void ChangeSet::Link(std::string path, std::string source, Guard guard) {
  Add(Action::Op::kLink, std::move(path), std::move(source), std::move(guard));
}

void ChangeSet::LinkNew(std::string path, std::string source, Guard guard) {
  Add(Action::Op::kLink, std::move(path), std::move(source), std::move(guard));
  actions_.back().expect_new = true;
}

void ChangeSet::Copy(std::string path, std::string source) {
  Add(Action::Op::kCopy, std::move(path), std::move(source), Guard::None());
}

void ChangeSet::Rename(std::string from, std::string to, Guard guard) {
  Add(Action::Op::kRename, std::move(to), std::move(from), std::move(guard));
}

void ChangeSet::Remove(std::string path, Guard guard) {
  Add(Action::Op::kRemove, std::move(path), "", std::move(guard));
}

void ChangeSet::Record(ChangeEvent event) { events_.push_back(std::move(event)); }

std::vector<std::string> ChangeSet::TouchedPaths() const {
  std::vector<std::string> out;
  for (const Action& a : actions_) {
    out.push_back(a.path);
    if (a.op == Action::Op::kRename) out.push_back(a.source);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> ChangeSet::MadeOnlyDirs() const {
  std::unordered_set<std::string> others;
  for (const Action& a : actions_) {
    if (a.op == Action::Op::kMakeDir) continue;
    others.insert(a.path);
    if (a.op == Action::Op::kRename) others.insert(a.source);
  }
  std::vector<std::string> out;
  for (const Action& a : actions_) {
    if (a.op == Action::Op::kMakeDir && others.count(a.path) == 0) out.push_back(a.path);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

size_t ChangeSet::InlineBytes() const {
  size_t n = 0;
  for (const Action& a : actions_) n += a.bytes.size();
  return n;
}

void AppendChangeSetMembers(std::string& out, const ChangeSet& change) {
  // Member order as DecodeChangeSet's readers see it in the log: op, path, then the op's own.
  out += "\"actions\":[";
  bool first = true;
  for (const Action& a : change.actions()) {
    if (!first) out.push_back(',');
    first = false;
    out += "{\"op\":";
    AppendJsonString(out, OpName(a.op));
    out += ",\"path\":";
    AppendJsonString(out, a.path);
    switch (a.op) {
      case Action::Op::kPut:
        // Text stays readable in the log (cat, jq); other bytes go in base64.
        if (IsValidUtf8(a.bytes)) {
          out += ",\"text\":";
          AppendJsonString(out, a.bytes);
        } else {
          out += ",\"base64\":";
          AppendJsonString(out, Base64Encode(a.bytes));
        }
        if (!a.stamp.empty()) {
          out += ",\"stamp\":";
          AppendJsonString(out, a.stamp);
        }
        break;
      case Action::Op::kMakeDir: break;
      case Action::Op::kLink:
      case Action::Op::kRename:
        out += ",\"from\":";
        AppendJsonString(out, a.source);
        out += ",\"guard\":";
        AppendGuard(out, a.guard);
        break;
      case Action::Op::kRemove:
        out += ",\"guard\":";
        AppendGuard(out, a.guard);
        break;
      case Action::Op::kCopy:
        out += ",\"from\":";
        AppendJsonString(out, a.source);
        break;
    }
    out.push_back('}');
  }
  out += "],\"events\":[";
  first = true;
  for (const ChangeEvent& e : change.events()) {
    if (!first) out.push_back(',');
    first = false;
    e.AppendJson(out);
  }
  out.push_back(']');
}

Result<ChangeSet> DecodeChangeSet(const Json& record, const std::string& what) {
  const auto bad = [&](const std::string& why) { return StorageError("commit log record " + what + ": " + why); };
  if (!record.is_object()) return bad("not a JSON object");
  auto actions = record.find("actions");
  if (actions == record.end() || !actions->is_array()) return bad("no actions list");
  ChangeSet out;
  for (const Json& j : *actions) {
    auto op = ParseOp(StringField(j, "op").value_or(""));
    auto path = StringField(j, "path");
    if (!op || !path) return bad("an action without a known op or a path");
    Action a;
    a.op = *op;
    a.path = *path;
    if (a.op == Action::Op::kPut) {
      if (auto text = StringField(j, "text")) {
        a.bytes = *text;
      } else if (auto b64 = StringField(j, "base64")) {
        auto bytes = Base64Decode(*b64);
        if (!bytes) return bad("bad base64 for '" + a.path + "'");
        a.bytes = std::move(*bytes);
      } else {
        return bad("a put without bytes for '" + a.path + "'");
      }
      a.stamp = StringField(j, "stamp").value_or("");
    }
    if (a.op == Action::Op::kCopy) return bad("an unprepared copy of '" + a.path + "'");
    if (a.op == Action::Op::kLink || a.op == Action::Op::kRename) {
      auto from = StringField(j, "from");
      if (!from) return bad("a " + std::string(OpName(a.op)) + " without 'from'");
      a.source = *from;
    }
    if (a.op == Action::Op::kLink || a.op == Action::Op::kRename || a.op == Action::Op::kRemove) {
      auto it = j.find("guard");
      auto guard = DecodeGuard(it == j.end() ? Json(nullptr) : *it);
      if (!guard) return bad("a malformed guard for '" + a.path + "'");
      a.guard = std::move(*guard);
    }
    out.mutable_actions().push_back(std::move(a));
  }
  if (auto events = record.find("events"); events != record.end() && events->is_array()) {
    for (const Json& j : *events) {
      auto e = ChangeEvent::Decode(j);
      if (!e) return bad("a malformed change event");
      out.mutable_events().push_back(std::move(*e));
    }
  }
  return out;
}

Status ApplyChangeSet(Fs& fs, const ChangeSet& change, const ApplyOptions& options,
                      std::vector<std::string>* trashed) {
  return Applier(fs, change, options, trashed).Apply(change);
}

}  // namespace folio::storage
