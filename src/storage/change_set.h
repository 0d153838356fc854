// A change of several files, described before anything is written: what the engine
// hands to the Committer (storage/committer.h). The Committer writes it to the commit
// log as one redo record (the commit point), then applies it to the files. Every
// action is written so that applying a record again, from any state a crash can leave
// (docs/STORAGE.md §8), ends where the first application ended:
// - Put and MakeDir are blind: they set a path to a value;
// - Link, Rename and Remove name the file they expect by a guard (its inode, or the id
//   its record holds); when the guard no longer matches, the action took effect before
//   and something later replaced it, so it is skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "storage/json_file.h"

namespace folio::storage {

class SparePool;

// What a guarded action expects to find at its source path.
struct Guard {
  enum class Kind {
    kNone,      // no expectation
    kInode,     // a file with this inode (device and inode)
    kRecordId,  // a directory whose record `file` (relative to it) holds `field` == `value`
  };
  Kind kind = Kind::kNone;
  uint64_t device = 0, inode = 0;
  std::string file, field, value;

  static Guard None() { return {}; }
  static Guard Inode(const FileStat& st) {
    Guard g;
    g.kind = Kind::kInode;
    g.device = st.device;
    g.inode = st.inode;
    return g;
  }
  static Guard RecordId(std::string file, std::string field, std::string value) {
    Guard g;
    g.kind = Kind::kRecordId;
    g.file = std::move(file);
    g.field = std::move(field);
    g.value = std::move(value);
    return g;
  }
};

// One entry of a repository's change log (docs/STORAGE.md §8; docs/API.md, content
// changes). The token is assigned when the change is committed.
struct ChangeEvent {
  uint64_t token = 0;
  int64_t time_ms = 0;
  std::string type;  // "created", "updated", "deleted", "security"
  std::string object_id;
  std::string base_type_id;  // "cmis:document", ...
  std::string type_id;       // the object's type
  // "deleted" events only: the principals the object's ACL let read it when it was
  // deleted (its entries granting cmis:read), which decide who sees its events after
  // (docs/API.md §7.12). Empty: only those who see everything.
  std::vector<std::string> readers;
  // Appends the event as one JSON object (docs/STORAGE.md §8): the text of a change-log
  // line and of a redo record's event, written without building a JSON value.
  void AppendJson(std::string& out) const;
  static std::optional<ChangeEvent> Decode(const Json& j);
};

struct Action {
  // kCopy never reaches the log: the Committer turns it into a Put (small) or a Link of
  // a synced copy (large) before the record is written.
  enum class Op { kPut, kMakeDir, kLink, kRename, kRemove, kCopy };
  Op op = Op::kPut;
  std::string path;    // the path set, created, linked, renamed to, or removed
  std::string source;  // kLink, kCopy: the existing file; kRename: the path renamed
  std::string bytes;   // kPut
  Guard guard;         // kLink, kRename, kRemove: what `source` (kRemove: `path`) must be
  // kPut of JSON only: the file whose identity (size, mtime, inode), as the apply finds
  // it, is written into the JSON's "file" member (a series records its visible file,
  // which the same change writes just before).
  std::string stamp;
  // kPut by PutJson, and the kLink a large one becomes (Committer: its bytes go to an
  // upload file first); never logged: a replayed record has it false. The apply hands
  // what it wrote to ApplyOptions::on_json_written, so that readers need not read back
  // what this process has just written.
  bool json = false;
  // kPut by PutJson: the value `bytes` is the text of, as a reader parsing `bytes` gets
  // it (never logged; null when it cannot be, and then the apply parses `bytes`). For
  // the kLink of a large one, always set when `json` is.
  std::shared_ptr<const Json> value;
  // kPut by Put with a `written` report, and the kLink a large one becomes (Committer):
  // called by the apply with the identity of the file it left at `path`, so that what
  // the caller made of the bytes (a decoding) can be kept without reading them back.
  // Never logged: a replayed record has none. Not called when the file found there
  // right after is not the one put (its size differs; a link's two names are not one
  // file).
  std::function<void(const FileStat&)> written;
  // kLink by LinkNew: nothing is expected at `path`, so the link is made there at once
  // (one call), and only when something is there after all beside it and renamed over
  // it (never logged: a replayed record has it false, and takes the longer way).
  bool expect_new = false;
};

class ChangeSet {
 public:
  // At commit, `path` holds `bytes` (created or replaced; readers see the old bytes or
  // the new ones).
  void Put(std::string path, std::string bytes);
  // As Put, reporting to `written` the identity of the file the apply leaves at `path`
  // (see Action::written).
  void Put(std::string path, std::string bytes, std::function<void(const FileStat&)> written);
  void PutJson(std::string path, Json value);
  // As PutJson, with the identity of `stamped` (written earlier in this change set) put
  // into the member "file" of `value` when the change is applied.
  void PutJsonStamped(std::string path, Json value, std::string stamped);
  // At commit, the directory `path` exists (nothing if it does).
  void MakeDir(std::string path);
  // At commit, `path` is another name of the file `source` (no byte copied), replacing
  // what was there. `guard` names `source`'s inode, unless an earlier action of this
  // change set writes `source` (then Guard::None()).
  void Link(std::string path, std::string source, Guard guard);
  // As Link, for a `path` that is not expected to exist (a working copy's content at a
  // check-out): the same result, in fewer calls when nothing is there.
  void LinkNew(std::string path, std::string source, Guard guard);
  // At commit, `path` holds a copy of the bytes `source` holds now (a file whose inode
  // must not be shared: a working copy is edited apart from its version).
  void Copy(std::string path, std::string source);
  // At commit, `from` (file or directory, as `guard` says) is renamed to `to`.
  void Rename(std::string from, std::string to, Guard guard);
  // At commit, `path` (a file, or a directory and everything below it) is gone.
  void Remove(std::string path, Guard guard = Guard::None());
  // At commit, the change log records `event` (its token is assigned then).
  void Record(ChangeEvent event);

  bool empty() const { return actions_.empty() && events_.empty(); }
  const std::vector<Action>& actions() const { return actions_; }
  std::vector<Action>& mutable_actions() { return actions_; }
  const std::vector<ChangeEvent>& events() const { return events_; }
  std::vector<ChangeEvent>& mutable_events() { return events_; }
  // Every path the change writes, renames or removes (both ends of a rename): what a
  // reader of those paths must not see half-done.
  std::vector<std::string> TouchedPaths() const;
  // The paths among TouchedPaths() that the change only makes as directories (MakeDir,
  // and no other action on the path): nothing below them is renamed or removed by it.
  std::vector<std::string> MadeOnlyDirs() const;
  // Bytes held inline by Put actions.
  size_t InlineBytes() const;

 private:
  void Add(Action::Op op, std::string path, std::string source, Guard guard);
  std::vector<Action> actions_;
  std::vector<ChangeEvent> events_;
};

// Appends the members of the redo record of `change` (docs/STORAGE.md §8):
// `"actions":[...],"events":[...]`, no braces (the commit log adds its own members
// around them). Content bytes are text when they are valid UTF-8, else base64. Written
// directly as text (no JSON value is built): it runs for every change, under the
// commit path's staging lock. DecodeChangeSet reads it back.
void AppendChangeSetMembers(std::string& out, const ChangeSet& change);
// Errors: kStorage naming `what` if the record is malformed.
Result<ChangeSet> DecodeChangeSet(const Json& record, const std::string& what);

struct ApplyOptions {
  // Where a removed directory goes first (renamed, then removed by the caller later):
  // a tree disappears from listings at once and its removal leaves the request path.
  std::string trash_dir;
  // Called after a JSON file (ChangeSet::PutJson) was put in place, with its identity as
  // the apply found it right after the rename and its bytes parsed as a reader parses
  // them: a cache of parsed records can keep it.
  std::function<void(const std::string& path, const FileStat& st, std::shared_ptr<const Json> value)>
      on_json_written;
  // Recovery only (null otherwise): the paths that re-applying the earlier records of
  // this recovery has put, linked or made, kept across its records. Such a file is the
  // replay's own re-creation of what a guard of a later record names (its inode is
  // new): the guard is taken to hold; and a directory made again whose rename finds the
  // object already at the target is removed (docs/STORAGE.md §8.2).
  std::set<std::string>* replayed = nullptr;
  // Where replaced and removed records leave their inodes, and new files take theirs
  // (docs/STORAGE.md §8.5): the repository's spares. Null: a put writes a new file and
  // the old one is freed (recovery, a read-only overlay).
  SparePool* spares = nullptr;
};

// Applies every action of `change` in order, idempotently (see the file comment), with
// no sync: the commit log has made the change durable already. Directories renamed into
// `options.trash_dir` are appended to `trashed` for the caller to remove. Errors:
// kStorage from the filesystem (the record stays in the log and is applied again).
Status ApplyChangeSet(Fs& fs, const ChangeSet& change, const ApplyOptions& options,
                      std::vector<std::string>* trashed);

}  // namespace folio::storage
