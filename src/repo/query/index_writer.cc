// Writing the query index; see index_writer.h.
#include "repo/query/index_writer.h"

#include <algorithm>
#include <set>

#include "folio/cmis_ids.h"
#include "repo/acl/ace_list.h"
#include "repo/query/schema.h"
#include "repo/query/text_extract.h"
#include "storage/ids.h"

namespace folio::query {
namespace {

void BindJson(Stmt& s, int i, const Json* v) {
  if (v == nullptr || v->is_null()) {
    s.BindNull(i);
  } else if (v->is_string()) {
    s.BindText(i, v->get_ref<const std::string&>());
  } else if (v->is_boolean()) {
    s.BindInt(i, v->get<bool>() ? 1 : 0);
  } else if (v->is_number_integer()) {
    s.BindInt(i, v->get<int64_t>());
  } else if (v->is_number()) {
    s.BindReal(i, v->get<double>());
  } else {
    s.BindText(i, v->dump());
  }
}

const Json* Property(const ObjectData& o, std::string_view id) {
  auto it = o.properties.find(std::string(id));
  return it == o.properties.end() ? nullptr : &*it;
}

std::string TextOf(const ObjectData& o, std::string_view id) {
  const Json* v = Property(o, id);
  if (v == nullptr || v->is_null()) return "";
  return v->is_string() ? v->get<std::string>() : v->dump();
}

// What a document's full-text row is made from: it is rewritten only when this changes.
std::string TextKey(const ObjectData& o) {
  std::string key = o.name;
  for (std::string_view id : {cmis::kContentStreamId, cmis::kContentStreamLength, cmis::kContentStreamMimeType,
                              cmis::kLastModificationDate}) {
    key += '\x1f';
    key += TextOf(o, id);
  }
  return key;
}

// The part of an object id before ';' (a version's or working copy's series).
std::string SeriesPart(const std::string& id) { return id.substr(0, id.find(';')); }

std::string InsertSql() {
  std::string cols = "folder, current", qs = "?, ?";
  for (const ColumnProperty& c : kColumnProperties) {
    cols += ", " + std::string(c.column);
    qs += ", ?";
  }
  return "INSERT INTO objects(" + cols + ") VALUES(" + qs + ")";
}

// Binds folder, current and every column of `o`, from parameter 1; returns the next.
int BindRow(Stmt& s, const ObjectData& o) {
  int i = 1;
  if (o.parent_id.empty()) {
    s.BindNull(i++);
  } else {
    s.BindText(i++, o.parent_id);
  }
  s.BindInt(i++, o.base != BaseType::kDocument || o.is_latest ? 1 : 0);
  for (const ColumnProperty& c : kColumnProperties) BindJson(s, i++, Property(o, c.property));
  return i;
}

std::string UpdateSql() {
  std::string sets = "folder = ?, current = ?";
  for (const ColumnProperty& c : kColumnProperties) sets += ", " + std::string(c.column) + " = ?";
  return "UPDATE objects SET " + sets + " WHERE rid = ?";
}

}  // namespace

Result<std::optional<int64_t>> ReadMeta(Db& db, const std::string& key) {
  FOLIO_ASSIGN_OR_RETURN(Stmt s, db.Prepare("SELECT value FROM meta WHERE key = ?"));
  s.BindText(1, key);
  FOLIO_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(s.Int(0));
}

Status IndexWriter::Begin() { return db_.Exec("BEGIN IMMEDIATE"); }
Status IndexWriter::Commit() { return db_.Exec("COMMIT"); }
void IndexWriter::Rollback() { (void)db_.Exec("ROLLBACK"); }

Result<Stmt*> IndexWriter::Cached(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    FOLIO_ASSIGN_OR_RETURN(Stmt s, db_.Prepare(sql));
    it = cache_.emplace(sql, std::move(s)).first;
  }
  it->second.Reset();
  return &it->second;
}

Result<std::optional<IndexWriter::Existing>> IndexWriter::Find(const std::string& object_id) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s,
                         Cached("SELECT rid, text_key, p_path, p_baseTypeId FROM objects WHERE p_objectId = ?"));
  s->BindText(1, object_id);
  FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
  if (!row) return std::optional<Existing>();
  Existing e{s->Int(0), s->Text(1), s->Text(2), s->Text(3) == cmis::kFolder};
  s->Reset();
  return std::optional<Existing>(std::move(e));
}

Status IndexWriter::RemoveRow(int64_t rid) {
  for (const char* sql :
       {"DELETE FROM objects WHERE rid = ?", "DELETE FROM props WHERE obj = ?", "DELETE FROM fts WHERE rowid = ?",
        "DELETE FROM readers WHERE obj = ?"}) {
    FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached(sql));
    s->BindInt(1, rid);
    FOLIO_RETURN_IF_ERROR(s->Run());
  }
  return OkStatus();
}

Result<bool> IndexWriter::InsertNew(const ObjectData& o, const std::string* text) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached(InsertSql() + " ON CONFLICT(p_objectId) DO NOTHING"));
  BindRow(*s, o);
  FOLIO_RETURN_IF_ERROR(s->Run());
  if (db_.Changes() == 0) return false;
  const int64_t rid = db_.LastInsertRowId();
  FOLIO_RETURN_IF_ERROR(PutProps(rid, o, /*fresh=*/true));
  FOLIO_RETURN_IF_ERROR(PutReaders(rid, o, /*fresh=*/true));
  if (o.base == BaseType::kDocument) FOLIO_RETURN_IF_ERROR(PutText(rid, o, TextKey(o), text, /*fresh=*/true));
  return true;
}

Status IndexWriter::Put(const ObjectData& o, const std::string* text) {
  if (o.is_pwc) return OkStatus();
  if (bulk_) {
    FOLIO_ASSIGN_OR_RETURN(bool inserted, InsertNew(o, text));
    if (inserted) return OkStatus();
  }
  FOLIO_ASSIGN_OR_RETURN(std::optional<Existing> old, Find(o.id));
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached(old ? UpdateSql() : InsertSql()));
  int i = BindRow(*s, o);
  if (old) s->BindInt(i, old->rid);
  FOLIO_RETURN_IF_ERROR(s->Run());
  const int64_t rid = old ? old->rid : db_.LastInsertRowId();
  FOLIO_RETURN_IF_ERROR(PutProps(rid, o, /*fresh=*/false));
  FOLIO_RETURN_IF_ERROR(PutReaders(rid, o, /*fresh=*/!old));
  if (o.base == BaseType::kDocument) {
    const std::string key = TextKey(o);
    if (!old || old->text_key != key) FOLIO_RETURN_IF_ERROR(PutText(rid, o, key, text, /*fresh=*/!old));
  }
  if (o.base == BaseType::kFolder && old && !old->path.empty()) {
    const std::string path = TextOf(o, cmis::kPath);
    if (path != old->path) {
      // The folders below keep their ids and parents but their paths start anew.
      FOLIO_ASSIGN_OR_RETURN(Stmt * u, Cached("UPDATE objects SET p_path = ?1 || substr(p_path, length(?2) + 1) "
                                              "WHERE p_baseTypeId = 'cmis:folder' AND "
                                              "substr(p_path, 1, length(?2) + 1) = ?2 || '/'"));
      u->BindText(1, path).BindText(2, old->path);
      FOLIO_RETURN_IF_ERROR(u->Run());
    }
  }
  return OkStatus();
}

Status IndexWriter::PutProps(int64_t rid, const ObjectData& o, bool fresh) {
  if (!fresh) {
    FOLIO_ASSIGN_OR_RETURN(Stmt * del, Cached("DELETE FROM props WHERE obj = ?"));
    del->BindInt(1, rid);
    FOLIO_RETURN_IF_ERROR(del->Run());
  }
  for (auto it = o.properties.begin(); it != o.properties.end(); ++it) {
    if (it->is_null() || FindColumn(it.key()) != nullptr) continue;
    auto put = [&](int64_t ord, const Json& v) -> Status {
      if (v.is_null()) return OkStatus();
      FOLIO_ASSIGN_OR_RETURN(Stmt * ins, Cached("INSERT OR REPLACE INTO props(obj, prop, ord, v) VALUES(?, ?, ?, ?)"));
      ins->BindInt(1, rid).BindText(2, it.key()).BindInt(3, ord);
      BindJson(*ins, 4, &v);
      return ins->Run();
    };
    if (it->is_array()) {
      int64_t ord = 0;
      for (const Json& v : *it) FOLIO_RETURN_IF_ERROR(put(ord++, v));
    } else {
      FOLIO_RETURN_IF_ERROR(put(0, *it));
    }
  }
  return OkStatus();
}

Status IndexWriter::PutReaders(int64_t rid, const ObjectData& o, bool fresh) {
  if (!fresh) {
    FOLIO_ASSIGN_OR_RETURN(Stmt * del, Cached("DELETE FROM readers WHERE obj = ?"));
    del->BindInt(1, rid);
    FOLIO_RETURN_IF_ERROR(del->Run());
  }
  for (const std::string& principal : acl::ReadingPrincipals(o.acl)) {
    FOLIO_ASSIGN_OR_RETURN(Stmt * ins, Cached("INSERT OR IGNORE INTO readers(obj, principal) VALUES(?, ?)"));
    ins->BindInt(1, rid).BindText(2, principal);
    FOLIO_RETURN_IF_ERROR(ins->Run());
  }
  return OkStatus();
}

Status IndexWriter::PutText(int64_t rid, const ObjectData& o, const std::string& text_key, const std::string* text,
                            bool fresh) {
  if (!fresh) {
    FOLIO_ASSIGN_OR_RETURN(Stmt * del, Cached("DELETE FROM fts WHERE rowid = ?"));
    del->BindInt(1, rid);
    FOLIO_RETURN_IF_ERROR(del->Run());
  }
  const std::string body = text != nullptr ? *text : ExtractText(repo_, o);
  FOLIO_ASSIGN_OR_RETURN(Stmt * ins, Cached("INSERT INTO fts(rowid, name, body) VALUES(?, ?, ?)"));
  ins->BindInt(1, rid).BindText(2, ValidUtf8(o.name)).BindText(3, body);
  FOLIO_RETURN_IF_ERROR(ins->Run());
  FOLIO_ASSIGN_OR_RETURN(Stmt * key, Cached("UPDATE objects SET text_key = ? WHERE rid = ?"));
  key->BindText(1, text_key).BindInt(2, rid);
  return key->Run();
}

Status IndexWriter::ReindexSeries(const std::string& series_id) {
  std::vector<std::pair<int64_t, std::string>> rows;
  {
    FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("SELECT rid, p_objectId FROM objects WHERE p_versionSeriesId = ? "
                                            "AND p_baseTypeId = 'cmis:document'"));
    s->BindText(1, series_id);
    for (;;) {
      FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
      if (!row) break;
      rows.emplace_back(s->Int(0), s->Text(1));
    }
  }
  std::set<std::string> kept;
  // Anything but the series' versions (missing, unreadable) leaves no rows: a query
  // never returns what cannot be read.
  auto versions = repo_.GetAllVersions(series_id);
  if (versions.ok()) {
    objects_read_ += versions->size();
    for (const ObjectData& v : *versions) {
      if (v.is_pwc) continue;
      FOLIO_RETURN_IF_ERROR(Put(v));
      kept.insert(v.id);
    }
  }
  for (const auto& [rid, id] : rows) {
    if (!kept.count(id)) FOLIO_RETURN_IF_ERROR(RemoveRow(rid));
  }
  return OkStatus();
}

Status IndexWriter::RefreshSeries(const ObjectData& changed) {
  const std::string& series_id = changed.series_id;
  std::optional<ObjectData> latest_read;
  if (!changed.is_latest) {
    auto latest = repo_.GetObject(series_id);
    ++objects_read_;
    if (!latest.ok() || latest->base != BaseType::kDocument || latest->is_pwc) return ReindexSeries(series_id);
    latest_read = std::move(*latest);
  }
  const ObjectData& latest = changed.is_latest ? changed : *latest_read;
  // The rows whose flags may turn off; a row filed elsewhere than the series is now
  // means a move, which changes every row.
  std::vector<std::string> flagged;
  {
    FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("SELECT p_objectId, folder FROM objects WHERE p_versionSeriesId = ? AND "
                                            "p_baseTypeId = 'cmis:document' AND (folder IS NOT ? OR current = 1 OR "
                                            "p_isLatestVersion = 1 OR p_isLatestMajorVersion = 1)"));
    s->BindText(1, series_id);
    if (latest.parent_id.empty()) {
      s->BindNull(2);
    } else {
      s->BindText(2, latest.parent_id);
    }
    bool moved = false;
    for (;;) {
      FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
      if (!row) break;
      if (s->Text(1) != latest.parent_id) moved = true;
      flagged.push_back(s->Text(0));
    }
    s->Reset();
    if (moved) return ReindexSeries(series_id);
  }
  if (!changed.is_pwc) FOLIO_RETURN_IF_ERROR(Put(changed));
  if (latest_read) FOLIO_RETURN_IF_ERROR(Put(latest));
  for (const std::string& id : flagged) {
    if (id == changed.id || id == latest.id) continue;
    auto version = repo_.GetObject(id);
    ++objects_read_;
    if (!version.ok() || version->series_id != series_id) return ReindexSeries(series_id);
    FOLIO_RETURN_IF_ERROR(Put(*version));
  }
  // Check-out and cancel change these on every version (they are the series').
  FOLIO_ASSIGN_OR_RETURN(
      Stmt * u, Cached("UPDATE objects SET p_isVersionSeriesCheckedOut = ?1, p_versionSeriesCheckedOutBy = ?2, "
                       "p_versionSeriesCheckedOutId = ?3, p_versionSeriesCheckedOutDate = ?4 "
                       "WHERE p_versionSeriesId = ?5 AND p_baseTypeId = 'cmis:document' AND "
                       "(p_isVersionSeriesCheckedOut IS NOT ?1 OR p_versionSeriesCheckedOutBy IS NOT ?2 OR "
                       "p_versionSeriesCheckedOutId IS NOT ?3 OR p_versionSeriesCheckedOutDate IS NOT ?4)"));
  BindJson(*u, 1, Property(latest, cmis::kIsVersionSeriesCheckedOut));
  BindJson(*u, 2, Property(latest, cmis::kVersionSeriesCheckedOutBy));
  BindJson(*u, 3, Property(latest, cmis::kVersionSeriesCheckedOutId));
  BindJson(*u, 4, Property(latest, cmis::kVersionSeriesCheckedOutDate));
  u->BindText(5, series_id);
  return u->Run();
}

Status IndexWriter::RemoveSubtree(const std::string& folder_id) {
  std::vector<int64_t> rids;
  {
    FOLIO_ASSIGN_OR_RETURN(Stmt * s,
                           Cached("WITH RECURSIVE t(id) AS (SELECT ?1 UNION SELECT o.p_objectId FROM objects o JOIN t "
                                  "ON o.folder = t.id WHERE o.p_baseTypeId = 'cmis:folder') "
                                  "SELECT rid FROM objects WHERE p_objectId IN t OR folder IN t"));
    s->BindText(1, folder_id);
    for (;;) {
      FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
      if (!row) break;
      rids.push_back(s->Int(0));
    }
  }
  for (int64_t rid : rids) FOLIO_RETURN_IF_ERROR(RemoveRow(rid));
  return OkStatus();
}

Result<std::vector<std::string>> IndexWriter::IdsFiledAs(const std::string& folder_id, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("SELECT p_objectId FROM objects WHERE folder = ? AND p_name = ?"));
  s->BindText(1, folder_id).BindText(2, name);
  std::vector<std::string> out;
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
    if (!row) break;
    out.push_back(s->Text(0));
  }
  return out;
}

Status IndexWriter::Apply(const ChangeEvent& event) {
  if (event.type == ChangeType::kCreated) {
    // Already a row: whatever wrote it (a build's scan, or an earlier event's re-read)
    // read the object after this creation, and each later change of it has an event
    // of its own, applied after this one. An id made again after a deletion (a version
    // label given again) is no exception: the deletion's event comes first, and its
    // re-read finds the object as it is now. After a first build this skips reading
    // again every document the scan has just adopted: the scan's own adoptions, which
    // took longer to catch up on than the scan took (bench/RESULTS.md).
    FOLIO_ASSIGN_OR_RETURN(std::optional<Existing> row, Find(event.object_id));
    if (row) return OkStatus();
  }
  auto object = repo_.GetObject(event.object_id);
  ++objects_read_;
  if (object.ok()) {
    if (object->base != BaseType::kDocument) return Put(*object);
    // A change of the ACL is the whole series' (its versions share it).
    if (event.type == ChangeType::kSecurity) return ReindexSeries(object->series_id);
    return RefreshSeries(*object);
  }
  // Gone (or unreadable, which a query could not show either): drop what the index
  // holds under that id. A document's other versions may remain: look at the series.
  const std::string series = SeriesPart(event.object_id);
  if (event.object_id == storage::PwcId(series)) {
    // A working copy checked in or cancelled: no version went with it.
    auto latest = repo_.GetObject(series);
    ++objects_read_;
    if (latest.ok() && latest->base == BaseType::kDocument && !latest->is_pwc) return RefreshSeries(*latest);
  }
  {
    FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("SELECT 1 FROM objects WHERE p_versionSeriesId = ? LIMIT 1"));
    s->BindText(1, series);
    FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
    s->Reset();
    if (row) return ReindexSeries(series);
  }
  FOLIO_ASSIGN_OR_RETURN(std::optional<Existing> old, Find(event.object_id));
  if (!old) return OkStatus();
  if (old->is_folder) return RemoveSubtree(event.object_id);
  return RemoveRow(old->rid);
}

Result<std::optional<int64_t>> IndexWriter::GetMeta(const std::string& key) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("SELECT value FROM meta WHERE key = ?"));
  s->BindText(1, key);
  FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
  if (!row) return std::optional<int64_t>();
  const int64_t v = s->Int(0);
  s->Reset();
  return std::optional<int64_t>(v);
}

Status IndexWriter::SetMeta(const std::string& key, int64_t value) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)"));
  s->BindText(1, key).BindInt(2, value);
  return s->Run();
}

Status IndexWriter::ClearMeta(const std::string& prefix) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("DELETE FROM meta WHERE substr(key, 1, length(?1)) = ?1"));
  s->BindText(1, prefix);
  return s->Run();
}

Result<std::vector<std::string>> IndexWriter::MetaKeys(const std::string& prefix) {
  FOLIO_ASSIGN_OR_RETURN(Stmt * s, Cached("SELECT key FROM meta WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key"));
  s->BindText(1, prefix);
  std::vector<std::string> keys;
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(bool row, s->Step());
    if (!row) break;
    keys.push_back(s->Text(0));
  }
  return keys;
}

}  // namespace folio::query
