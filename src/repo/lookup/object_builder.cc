// Records -> ObjectData; see object_builder.h.
#include "repo/lookup/object_builder.h"

#include <algorithm>
#include <map>

#include <spdlog/spdlog.h>

#include "folio/cmis_ids.h"
#include "repo/changes/staging.h"
#include "repo/engine.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/seen_edits.h"
#include "repo/lookup/locator.h"
#include "repo/types/properties.h"
#include "repo/types/secondary_types.h"
#include "repo/versions/version_files.h"
#include "repo/versions/version_label.h"
#include "repo/versions/version_reuse.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/json_file.h"
#include "storage/lookup_scope.h"

namespace folio::repo::lookup {

using storage::Json;

namespace {

// How many ReadOnce scopes the calling thread is in (ObjectBuilder::EnterReadOnce).
thread_local int t_read_once_depth = 0;

Json StoredOr(const Json& stored, const char* id) {
  auto it = stored.find(id);
  return it == stored.end() ? Json(nullptr) : *it;
}

// Whether two stats of a record show it in the same state: the same file, not written
// or renamed since (UnchangedWhileRead's test, and the same mtime).
bool SameRecordState(const FileStat& a, const FileStat& b) {
  return UnchangedWhileRead(a, b) && a.mtime_ns == b.mtime_ns;
}

// StoredOr for a value read only once: moved out, leaving null behind.
Json TakeStored(Json& stored, const char* id) {
  auto it = stored.find(id);
  return it == stored.end() ? Json(nullptr) : std::move(*it);
}

// Appends `key` to an object that does not hold it yet. ordered_json searches its keys
// on every insert, and a document gets about 35 properties on every read.
void Put(Json& obj, const char* key, Json value) {
  auto& list = static_cast<Json::object_t::Container&>(obj.get_ref<Json::object_t&>());
  list.emplace_back(key, std::move(value));
}

// The common properties for a caller that reads no "cmis:" value of `mem` afterwards:
// the values are moved out of `mem` instead of copied, and `reserve` (how many properties
// the caller adds in all) makes the list one allocation. For documents, which every
// version of a series in getAllVersions goes through.
Json CommonPropertiesTaking(const std::string& id, BaseType base, const std::string& type_id,
                            const std::string& name, Json& mem, size_t reserve) {
  Json p = Json::object();
  static_cast<Json::object_t::Container&>(p.get_ref<Json::object_t&>()).reserve(reserve);
  Put(p, cmis::kObjectId, id);
  Put(p, cmis::kBaseTypeId, std::string(BaseTypeId(base)));
  Put(p, cmis::kObjectTypeId, type_id);
  Put(p, cmis::kName, name);
  Put(p, cmis::kDescription, TakeStored(mem, cmis::kDescription));
  Put(p, cmis::kCreatedBy, TakeStored(mem, cmis::kCreatedBy));
  Put(p, cmis::kCreationDate, TakeStored(mem, cmis::kCreationDate));
  Put(p, cmis::kLastModifiedBy, TakeStored(mem, cmis::kLastModifiedBy));
  Json mod = TakeStored(mem, cmis::kLastModificationDate);
  Json token = mod.is_number() ? Json(std::to_string(mod.get<int64_t>())) : Json(nullptr);
  Put(p, cmis::kLastModificationDate, std::move(mod));
  Put(p, cmis::kChangeToken, std::move(token));
  Put(p, cmis::kSecondaryObjectTypeIds, TakeStored(mem, cmis::kSecondaryObjectTypeIds));
  return p;
}

// Common properties in a fixed, readable order (the caller adds the rest, then the
// custom ones); `mem` stays as it is.
Json CommonProperties(const std::string& id, BaseType base, const std::string& type_id, const std::string& name,
                      const Json& mem) {
  Json copy = mem;
  return CommonPropertiesTaking(id, base, type_id, name, copy, 16);
}

void AppendCustom(Json& p, const Json& mem) {
  for (auto& [k, v] : mem.items()) {
    if (!cmis::IsBuiltInId(k) && !p.contains(k)) p[k] = v;
  }
}


}  // namespace

Result<ObjectData> ObjectBuilder::Build(const Target& t) {
  const storage::LookupScope lookup;
  switch (t.loc.base) {
    case BaseType::kFolder: return BuildFolder(t.loc);
    case BaseType::kItem: return BuildItem(t.loc);
    case BaseType::kRelationship: return BuildRelationship(t.loc);
    case BaseType::kDocument: {
      FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o, BuildShared(t));
      return TakeOrCopy(std::move(o));
    }
  }
  return RuntimeError("unknown base type");
}

Result<std::shared_ptr<const ObjectData>> ObjectBuilder::BuildShared(const Target& t) {
  const storage::LookupScope lookup;
  if (t.loc.base != BaseType::kDocument) {
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, Build(t));
    return std::shared_ptr<const ObjectData>(std::make_shared<ObjectData>(std::move(o)));
  }
  if (t.loc.record) {
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const SeriesRecord> series,
                           engine_.records.DecodeSeries(t.loc.record, t.loc.name));
    return BuildDocumentShared(t.loc, *series, t.label, t.pwc);
  }
  if (t.loc.adopted != nullptr) {  // found without the series.json it stands for
    return BuildDocumentShared(t.loc, hand_edits::AdoptedSeries(t.loc.adopted->entry), t.label, t.pwc);
  }
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(t.loc));
  return BuildDocumentShared(t.loc, series, t.label, t.pwc);
}

// The record at `path` read into an ObjectData of `base`: id, type, ACL, and the common
// properties in memory form; the caller adds what is particular to the base type.
// `mem` receives the in-memory stored properties.
Result<ObjectData> ObjectBuilder::BuildFromRecord(const std::string& path, BaseType base, const std::string& name,
                                             Json& mem) {
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(path));
  const std::string type_id = changes::StoredTypeId(rec.properties, base);
  FOLIO_ASSIGN_OR_RETURN(auto type, engine_.types.Get(type_id));
  mem = types::SecondaryStoredToMemory(engine_.types, types::StoredToMemory(*type, rec.properties));
  ObjectData o;
  o.id = rec.id;
  o.base = base;
  o.type_id = type_id;
  o.name = base == BaseType::kRelationship ? storage::StringOr(mem, cmis::kName, "") : name;
  o.properties = CommonProperties(o.id, o.base, type_id, o.name, mem);
  o.acl = rec.acl;
  return o;
}

Result<ObjectData> ObjectBuilder::BuildFolder(const Loc& loc) {
  const storage::LookupScope lookup;
  Json mem;
  const std::string name = loc.folder.empty() ? "" : storage::BaseName(loc.folder);
  FOLIO_ASSIGN_OR_RETURN(ObjectData o,
                         BuildFromRecord(engine_.layout.FolderFile(loc.folder), BaseType::kFolder, name, mem));
  o.path = loc.folder;
  if (!loc.folder.empty()) {
    FOLIO_ASSIGN_OR_RETURN(o.parent_id, engine_.locator.FolderIdAt(storage::ParentPath(loc.folder)));
  }
  Put(o.properties, cmis::kParentId, o.parent_id.empty() ? Json(nullptr) : Json(o.parent_id));
  Put(o.properties, cmis::kPath, "/" + loc.folder);
  Put(o.properties, cmis::kAllowedChildObjectTypeIds, nullptr);
  AppendCustom(o.properties, mem);
  return o;
}

Result<ObjectData> ObjectBuilder::BuildItem(const Loc& loc) {
  const storage::LookupScope lookup;
  Json mem;
  FOLIO_ASSIGN_OR_RETURN(
      ObjectData o, BuildFromRecord(engine_.layout.ItemFile(loc.folder, loc.name), BaseType::kItem, loc.name, mem));
  o.path = storage::JoinPath(loc.folder, loc.name);
  FOLIO_ASSIGN_OR_RETURN(o.parent_id, engine_.locator.FolderIdAt(loc.folder));
  AppendCustom(o.properties, mem);
  return o;
}

Result<ObjectData> ObjectBuilder::BuildRelationship(const Loc& loc) {
  const storage::LookupScope lookup;
  Json mem;
  FOLIO_ASSIGN_OR_RETURN(ObjectData o,
                         BuildFromRecord(engine_.layout.RelationshipFile(loc.id), BaseType::kRelationship, "", mem));
  o.id = loc.id;
  o.properties[cmis::kObjectId] = loc.id;
  Put(o.properties, cmis::kSourceId, StoredOr(mem, cmis::kSourceId));
  Put(o.properties, cmis::kTargetId, StoredOr(mem, cmis::kTargetId));
  AppendCustom(o.properties, mem);
  return o;
}

Result<ObjectData> ObjectBuilder::BuildDocument(const Loc& loc, const SeriesRecord& series,
                                                std::optional<std::string> label, bool pwc) {
  const storage::LookupScope lookup;
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o,
                         BuildDocumentImpl(loc, series, std::move(label), pwc, nullptr));
  return TakeOrCopy(std::move(o));
}

Result<std::shared_ptr<const ObjectData>> ObjectBuilder::BuildDocumentShared(const Loc& loc,
                                                                             const SeriesRecord& series,
                                                                             std::optional<std::string> label,
                                                                             bool pwc) {
  const storage::LookupScope lookup;
  return BuildDocumentImpl(loc, series, std::move(label), pwc, nullptr);
}

Result<std::shared_ptr<const ObjectData>> ObjectBuilder::BuildDocumentImpl(const Loc& loc,
                                                                           const SeriesRecord& series_in,
                                                                           std::optional<std::string> label,
                                                                           bool pwc, const SeriesHints* hints) {
  // An adopted document (docs/STORAGE.md §4.1): its version 1.0 is its table's entry.
  std::shared_ptr<const hand_edits::AdoptedDoc> adopted = loc.adopted;
  if (!pwc && !series_in.versions.empty() && (!label || *label == versions::LatestLabel(series_in))) {
    // An edit by hand of the document's file becomes the latest version's content.
    // Metadata only, compared with what Folio wrote: the cheap, unconfined stat is
    // enough (absorbing an edit reads the file through the confined Open).
    auto st = loc.visible ? Result<FileStat>(*loc.visible)
                          : engine_.fs.IdentityStat(engine_.layout.Child(loc.folder, loc.name));
    if (st.ok() && st->type == FileType::kFile &&
        (st->size != series_in.file_size || st->mtime_ns != series_in.file_mtime_ns ||
         (series_in.file_inode != 0 && st->inode != series_in.file_inode))) {
      // Taking the edit in is a change of its own (docs/STORAGE.md §9), which this read
      // only records: the object is built as its records say, and the request's facade
      // has the edit taken in and reads again. When the disk failed that, the object is
      // built as its records say (the next read tries again), so that the answer of a
      // write that is done never says it failed.
      const hand_edits::Sighting seen{
          adopted != nullptr ? hand_edits::Sighting::Kind::kAdoptedEdit : hand_edits::Sighting::Kind::kHandEdit,
          loc.folder, {loc.name}, ""};
      Status s = hand_edits::SeenEdits::Record(seen);
      // (Out of memory for a read-only process's adoptions: refused, as every read of it.)
      if (!s.ok()) {
        if (hand_edits::IsReconcileFirst(s) || s.kind() != ErrorKind::kStorage || s.Is(std::errc::not_enough_memory))
          return s;
        spdlog::warn("the hand edit of '{}' is not taken in yet: {}", storage::JoinPath(loc.folder, loc.name),
                     s.message());
      }
    } else if (!st.ok() && st.status().Is(std::errc::no_such_file_or_directory)) {
      // Removed by hand: the document is gone for a person running ls, so for us too;
      // its deletion is to be recorded (docs/STORAGE.md §9).
      FOLIO_RETURN_IF_ERROR(
          hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kRemovals, loc.folder, {loc.name}, ""}));
      return ObjectNotFound("document '" + storage::JoinPath(loc.folder, loc.name) + "' was removed from disk");
    }
  }
  const SeriesRecord& series = series_in;
  if (pwc && !series.checked_out) {
    return ObjectNotFound("no private working copy '" + storage::PwcId(series.series_id) +
                          "': the document is not checked out");
  }
  std::string the_label;
  if (!pwc) {
    if (series.versions.empty()) return ObjectNotFound("document '" + loc.name + "' has no version yet");
    the_label = label ? *label : versions::LatestLabel(series);
    bool listed = (hints != nullptr && hints->labels_listed) || the_label == versions::LatestLabel(series);
    if (!listed) {
      FOLIO_ASSIGN_OR_RETURN(listed, engine_.versions.Lists(loc.folder, loc.name, series, the_label));
    }
    if (!listed) {
      return ObjectNotFound("no version '" + the_label + "' of document '" + loc.name + "'");
    }
  }
  const std::string rec_path = pwc ? engine_.layout.PwcProps(loc.folder, loc.name)
                                   : engine_.layout.VersionProps(loc.folder, loc.name, the_label);
  // Bulk reads (hints) read straight from disk: thousands of versions would only evict
  // everything else from the cache.
  // An adopted document has none: its entry stands for its version 1.0 record.
  std::shared_ptr<const Json> rec_json;
  if (adopted != nullptr) {
    if (pwc || the_label != "1.0") return ObjectNotFound("no version '" + the_label + "' of document '" + loc.name + "'");
  } else if (hints != nullptr) {
    FOLIO_ASSIGN_OR_RETURN(Json j, storage::ReadJsonFile(engine_.fs, rec_path));
    rec_json = std::make_shared<const Json>(std::move(j));
  } else {
    FOLIO_ASSIGN_OR_RETURN(rec_json, engine_.records.Read(rec_path));
  }
  FOLIO_ASSIGN_OR_RETURN(std::string parent_id, engine_.locator.FolderIdAt(loc.folder));
  // A document built before from the very same cached records (the cache hands out a
  // new object whenever a file changes) is the same document: reuse it.
  // Not for bulk reads (hints: getAllVersions): thousands of versions would only churn
  // the memo, copying each object in and clearing it again.
  const bool memo = loc.record != nullptr && hints == nullptr;
  const std::string memo_key = memo ? rec_path : std::string();
  if (memo) {
    std::lock_guard<std::mutex> lock(memo_mu_);
    auto it = memo_.find(memo_key);
    if (it != memo_.end() && it->second.series.lock() == loc.record && it->second.record.lock() == rec_json &&
        it->second.parent_id == parent_id) {
      FOLIO_ASSIGN_OR_RETURN(auto type_now, engine_.types.Get(it->second.obj->type_id));
      if (type_now == it->second.type) return it->second.obj;
    }
  }
  ObjectRecord rec;
  if (adopted != nullptr) {
    rec = hand_edits::AdoptedVersion(loc.name, adopted->entry);
  } else {
    FOLIO_ASSIGN_OR_RETURN(rec, ObjectRecordFromJson(*rec_json, rec_path));
  }
  const std::string type_id = changes::StoredTypeId(rec.properties, BaseType::kDocument);
  FOLIO_ASSIGN_OR_RETURN(auto type, engine_.types.Get(type_id));
  const DocContext context{&loc, &series, parent_id, versions::LatestLabel(series),
                           hints != nullptr ? hints->latest_major : versions::LatestMajorLabel(series)};
  std::shared_ptr<const ObjectData> o =
      std::make_shared<ObjectData>(AssembleDocument(context, the_label, pwc, type_id, *type, std::move(rec)));
  if (memo && t_read_once_depth == 0) {
    std::lock_guard<std::mutex> lock(memo_mu_);
    SweepMemo(memo_, memo_sweep_at_, max_documents_,
              [](const DocMemo& m) {
                return m.series.expired() || (m.made ? m.adopted.expired() : m.record.expired());
              });
    std::shared_ptr<const Json> made = adopted != nullptr ? loc.record : nullptr;
    memo_[memo_key] = DocMemo{loc.record, rec_json, std::move(made), loc.adopted, type, parent_id, o};
  }
  return o;
}

std::string ObjectBuilder::SeriesStamp(const Loc& loc, const SeriesRecord& series, const std::string& parent_id,
                                       const std::string& latest_major) {
  // Everything AssembleDocument takes from beside the record; strings are prefixed by
  // their length so that no two states spell the same.
  std::string s;
  const auto add = [&s](std::string_view part) {
    s.append(std::to_string(part.size())).append(":").append(part);
  };
  add(series.series_id);
  add(versions::LatestLabel(series));
  add(latest_major);
  add(loc.folder);
  add(loc.name);
  add(parent_id);
  s += series.versionable ? 'v' : '-';
  s += loc.adopted != nullptr ? 'a' : '-';
  if (series.checked_out) {
    add(series.checked_out->by);
    s.append(std::to_string(series.checked_out->since_ms));
  }
  s += '|';
  return s;
}

Status ObjectBuilder::BuildAllVersions(const Loc& loc, const SeriesRecord& series, bool newest_first,
                                       const VersionVisitor& visit) {
  const storage::LookupScope lookup;
  const SeriesHints hints{versions::LatestMajorLabel(series), /*labels_listed=*/true};
  DocContext context{&loc, &series, "", versions::LatestLabel(series), hints.latest_major};
  FOLIO_ASSIGN_OR_RETURN(context.parent_id, engine_.locator.FolderIdAt(loc.folder));
  const std::string series_dir = engine_.layout.SeriesDir(loc.folder, loc.name);
  versions::VersionReuse* reuse = versions::VersionReuse::Current();
  const std::string series_stamp =
      reuse == nullptr ? std::string() : SeriesStamp(loc, series, context.parent_id, hints.latest_major);
  bool first = true;  // the first object handed is always built (version_reuse.h)
  // The records are looked at by identity below: only beneath a series directory that
  // is one (not a symlink, none on the way), as a confined stat says once per call.
  bool series_dir_plain = false;
  if (reuse != nullptr) {
    auto st = engine_.fs.Stat(series_dir);
    series_dir_plain = st.ok() && st->type == FileType::kDirectory;
  }
  // Opened once, beneath the data directory like any path: each version record is
  // then one openat (or fstatat) beneath it. Read straight from disk, not through the cache:
  // thousands of versions would only evict everything else from it.
  std::unique_ptr<Directory> dir;
  std::string file_name, path, bytes, stamp;
  // The types met in this call, by id: each looked at once (a stat of a custom one).
  std::map<std::string, std::shared_ptr<const types::TypeDef>, std::less<>> types_seen;
  const auto type_of = [&](const std::string& id) -> Result<std::shared_ptr<const types::TypeDef>> {
    auto it = types_seen.find(id);
    if (it != types_seen.end()) return it->second;
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const types::TypeDef> t, engine_.types.Get(id));
    types_seen.emplace(id, t);
    return t;
  };
  // The stamp of the earlier version whose record at `path` a stat shows as `st`:
  // empty when the types it names are not known for that state.
  const auto stamp_of = [&](const FileStat& st) {
    stamp.clear();
    auto named = RecordTypes(path, st);
    if (!named) return;
    stamp = series_stamp;
    for (const uint64_t n : {st.device, st.inode, st.size}) stamp.append(std::to_string(n)).append(".");
    stamp.append(std::to_string(st.mtime_ns)).append(".").append(std::to_string(st.ctime_ns));
    for (const std::string& type_id : *named) {
      auto t = type_of(type_id);
      if (!t.ok()) {  // gone or unreadable: built, and the build says what it makes of it
        stamp.clear();
        return;
      }
      stamp.append("|").append(type_id).append("#").append(std::to_string(TypeSerial(*t)));
    }
  };
  const auto hand = [&](ObjectData&& o) {
    first = false;
    return visit(std::move(o));
  };
  const auto version = [&](const std::string& label) -> Status {
    if (reuse != nullptr) reuse->Handing("");
    if (label == context.latest_label) {
      // The latest version takes in an edit by hand of the document's file first.
      FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o, BuildDocumentImpl(loc, series, label, false, &hints));
      return hand(TakeOrCopy(std::move(o)));
    }
    file_name = storage::VersionPropsName(label);
    path.assign(series_dir).append("/").append(file_name);  // = engine_.layout.VersionProps(...)
    if (dir == nullptr) {
      FOLIO_ASSIGN_OR_RETURN(dir, engine_.fs.OpenDirectory(series_dir));
    }
    FileStat seen;
    if (reuse != nullptr && series_dir_plain) {
      // The record as a stat sees it now: with the types it named when it was last read
      // in that very state, that is what the version is made of. One system call beneath
      // the series directory (the identity of a file read before through a confined
      // call: folio/fs.h).
      auto st = dir->IdentityStat(file_name);
      if (st.ok() && st->type == FileType::kFile && st->inode != 0) {
        seen = *st;
        stamp_of(seen);
        const std::string id = storage::VersionId(series.series_id, label);
        if (!first && !stamp.empty() && reuse->Has(id, stamp)) {
          reuse->Handing(stamp);
          ObjectData& stand_in = reuse->stand_in();
          stand_in.id = id;
          return hand(std::move(stand_in));
        }
      }
    }
    FOLIO_RETURN_IF_ERROR(dir->ReadFile(file_name, bytes));
    FOLIO_ASSIGN_OR_RETURN(Json j, storage::ParseStoredJson(bytes, path));
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, ObjectRecordFromJson(std::move(j), path));
    const std::string rec_type_id = changes::StoredTypeId(rec.properties, BaseType::kDocument);
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const types::TypeDef> type, type_of(rec_type_id));
    if (reuse != nullptr && seen.inode != 0) {
      std::vector<std::string> named = types::StoredSecondaryTypeIds(rec.properties);
      named.insert(named.begin(), rec_type_id);
      RememberRecordTypes(path, seen, std::move(named));
      // Read after the stat: should the file have changed in between, what is kept here
      // under the state the stat saw is never asked for again (a later stat sees the
      // change: its ctime moved on).
      stamp_of(seen);
      reuse->Handing(stamp);
    }
    return hand(AssembleDocument(context, label, false, rec_type_id, *type, std::move(rec)));
  };
  const auto working_copy = [&]() -> Status {
    if (!series.checked_out) return OkStatus();
    if (reuse != nullptr) reuse->Handing("");
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, BuildDocument(loc, series, std::nullopt, true));
    return hand(std::move(o));
  };
  // The archived labels (repo/versions/version_list.h) one archive at a time.
  const auto archive = [&](const VersionArchive& a, bool backwards) -> Status {
    FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> labels,
                           engine_.versions.ReadArchive(loc.folder, loc.name, series, a));
    if (backwards) std::reverse(labels.begin(), labels.end());
    for (const std::string& label : labels) FOLIO_RETURN_IF_ERROR(version(label));
    return OkStatus();
  };
  if (newest_first) {
    FOLIO_RETURN_IF_ERROR(working_copy());
    for (auto it = series.versions.rbegin(); it != series.versions.rend(); ++it) FOLIO_RETURN_IF_ERROR(version(*it));
    for (auto it = series.archived.rbegin(); it != series.archived.rend(); ++it) {
      FOLIO_RETURN_IF_ERROR(archive(*it, true));
    }
    return OkStatus();
  }
  for (const VersionArchive& a : series.archived) FOLIO_RETURN_IF_ERROR(archive(a, false));
  for (const std::string& label : series.versions) FOLIO_RETURN_IF_ERROR(version(label));
  return working_copy();
}

std::optional<std::vector<std::string>> ObjectBuilder::RecordTypes(const std::string& path, const FileStat& st) {
  std::lock_guard<std::mutex> lock(memo_mu_);
  auto it = record_types_.find(path);
  if (it == record_types_.end() || !SameRecordState(it->second.stat, st)) return std::nullopt;
  return it->second.type_ids;
}

uint64_t ObjectBuilder::TypeSerial(const std::shared_ptr<const types::TypeDef>& type) {
  std::lock_guard<std::mutex> lock(memo_mu_);
  auto it = type_serials_.find(type.get());
  if (it != type_serials_.end()) return it->second.second;
  if (type_serials_.size() >= kMaxTypeSerials) type_serials_.clear();
  const uint64_t serial = next_type_serial_++;
  type_serials_.emplace(type.get(), std::make_pair(type, serial));
  return serial;
}

void ObjectBuilder::RememberRecordTypes(const std::string& path, const FileStat& st,
                                        std::vector<std::string> type_ids) {
  std::lock_guard<std::mutex> lock(memo_mu_);
  // Bounded: about 150 bytes each; past the limit it starts again (the next answers
  // read their records as before, and remember them anew).
  if (record_types_.size() >= kMaxRecordTypes && !record_types_.contains(path)) record_types_.clear();
  record_types_[path] = RecordTypesSeen{st, std::move(type_ids)};
}

ObjectData ObjectBuilder::AssembleDocument(const DocContext& c, const std::string& the_label, bool pwc,
                                           const std::string& type_id, const types::TypeDef& type, ObjectRecord rec) {
  const Loc& loc = *c.loc;
  const SeriesRecord& series = *c.series;
  Json mem = types::SecondaryStoredToMemory(engine_.types, types::StoredToMemory(type, std::move(rec.properties)));

  ObjectData o;
  o.id = pwc ? storage::PwcId(series.series_id) : storage::VersionId(series.series_id, the_label);
  o.base = BaseType::kDocument;
  o.type_id = type_id;
  o.name = storage::StringOr(mem, cmis::kName, loc.name);
  o.path = storage::JoinPath(loc.folder, loc.name);
  o.parent_id = c.parent_id;
  o.series_id = series.series_id;
  o.version_label = pwc ? "pwc" : the_label;
  o.is_pwc = pwc;
  o.content = std::move(rec.content);
  o.content_in_document_file = loc.adopted != nullptr && !pwc;
  o.acl = std::move(rec.acl);

  const bool versioned = series.versionable;
  o.is_latest = !pwc && the_label == c.latest_label;
  const bool is_major = !pwc && rec.major;

  // 11 common properties, 16 of documents, then the custom ones: one allocation.
  size_t custom = 0;
  for (const auto& kv : mem.get_ref<const Json::object_t&>()) custom += !cmis::IsBuiltInId(kv.first);
  Json& p = o.properties = CommonPropertiesTaking(o.id, o.base, type_id, o.name, mem, 27 + custom);
  Put(p, cmis::kIsImmutable, false);
  Put(p, cmis::kIsLatestVersion, o.is_latest);
  Put(p, cmis::kIsMajorVersion, versioned ? is_major : true);
  Put(p, cmis::kIsLatestMajorVersion, versioned ? (!pwc && the_label == c.latest_major) : true);
  Put(p, cmis::kIsPrivateWorkingCopy, pwc);
  Put(p, cmis::kVersionLabel, versioned ? Json(o.version_label) : Json(nullptr));
  Put(p, cmis::kVersionSeriesId, series.series_id);
  const bool out = series.checked_out.has_value();
  Put(p, cmis::kIsVersionSeriesCheckedOut, out);
  Put(p, cmis::kVersionSeriesCheckedOutBy, out ? Json(series.checked_out->by) : Json(nullptr));
  Put(p, cmis::kVersionSeriesCheckedOutId, out ? Json(storage::PwcId(series.series_id)) : Json(nullptr));
  Put(p, cmis::kVersionSeriesCheckedOutDate, out ? Json(series.checked_out->since_ms) : Json(nullptr));
  Put(p, cmis::kCheckinComment, TakeStored(mem, cmis::kCheckinComment));
  if (o.content) {
    Put(p, cmis::kContentStreamLength, o.content->length);
    Put(p, cmis::kContentStreamMimeType, o.content->mime_type);
    Put(p, cmis::kContentStreamFileName, o.content->file_name);
    Put(p, cmis::kContentStreamId, o.id + "/content");
    // Rule V5 (repo/versions/version_files.h); not set while the digest is unknown.
    Put(p, cmis::kContentStreamHash,
        o.content->sha256.empty() ? Json(nullptr) : Json::array({versions::ContentStreamHash(o.content->sha256)}));
  } else {
    Put(p, cmis::kContentStreamLength, nullptr);
    Put(p, cmis::kContentStreamMimeType, nullptr);
    Put(p, cmis::kContentStreamFileName, nullptr);
    Put(p, cmis::kContentStreamId, nullptr);
    Put(p, cmis::kContentStreamHash, nullptr);
  }
  AppendCustom(p, mem);
  return o;
}

void ObjectBuilder::EnterReadOnce() { ++t_read_once_depth; }

void ObjectBuilder::LeaveReadOnce() { --t_read_once_depth; }

void ObjectBuilder::DropCaches() {
  std::lock_guard<std::mutex> lock(memo_mu_);
  memo_.clear();
  record_types_.clear();
  type_serials_.clear();
  memo_sweep_at_ = kFirstMemoSweep;
}

}  // namespace folio::repo::lookup
