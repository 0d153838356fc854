// Records -> ObjectData: the stored properties plus every derived one (ids, versioning
// flags, content stream properties), under canonical CMIS ids. Documents built once
// are remembered (by the very cached records they came from) and shared with callers.
// Building never writes (Rule R1, docs/STORAGE.md §10: it runs under a
// storage::LookupScope): an edit or removal by hand of a document's visible file is
// recorded (repo/hand_edits/seen_edits.h) and the document built as its records say.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <unordered_map>
#include <vector>

#include "folio/fs.h"
#include "folio/object.h"
#include "folio/repository_caches.h"
#include "repo/lookup/location.h"
#include "repo/lookup/memo_sweep.h"
#include "repo/records.h"
#include "repo/types/types.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::lookup {

// Uses: fs, layout, records, versions, types, locator.
class ObjectBuilder {
 public:
  // Keeps built documents up to `max_documents` (RepositoryCaches::documents).
  explicit ObjectBuilder(Engine& engine, size_t max_documents = RepositoryCaches{}.documents)
      : engine_(engine), max_documents_(max_documents) {}

  // The object `t` names. Errors: kObjectNotFound when it is gone (a document whose
  // visible file was removed by hand, a version or working copy that does not exist);
  // kStorage for an unreadable record.
  Result<ObjectData> Build(const Target& t);
  // As Build, sharing a document with the memo of built documents when it is there (no
  // copy of ~35 properties); other objects are built for the caller alone.
  Result<std::shared_ptr<const ObjectData>> BuildShared(const Target& t);
  Result<ObjectData> BuildFolder(const Loc& loc);
  Result<ObjectData> BuildItem(const Loc& loc);
  Result<ObjectData> BuildRelationship(const Loc& loc);
  // Version `label` (nullopt: the latest) or the working copy of the document at `loc`
  // whose series is `series`. An edit by hand of the visible file is absorbed first.
  Result<ObjectData> BuildDocument(const Loc& loc, const SeriesRecord& series, std::optional<std::string> label,
                                   bool pwc);
  Result<std::shared_ptr<const ObjectData>> BuildDocumentShared(const Loc& loc, const SeriesRecord& series,
                                                                std::optional<std::string> label, bool pwc);
  // Every version of the document at `loc`, oldest first, then its working copy (or in
  // reverse, `newest_first`), each handed to `visit` as it is built and then dropped: a
  // series of 10,000 versions is never held whole. With a versions::VersionReuse installed on the
  // calling thread (repo/versions/version_reuse.h), an earlier version it holds an answer for is
  // handed as its stand-in, neither read nor built; its stamp costs a stat of its
  // record. Stops at the first error.
  using VersionVisitor = std::function<Status(ObjectData&&)>;
  Status BuildAllVersions(const Loc& loc, const SeriesRecord& series, bool newest_first, const VersionVisitor& visit);
  // Forgets the documents built (see Repository::DropCaches).
  void DropCaches();
  // The calling thread enters or leaves a Repository::ReadOnce scope: while it is in
  // one, the documents it builds are not memoised.
  static void EnterReadOnce();
  static void LeaveReadOnce();

 private:
  struct SeriesHints {
    std::string latest_major;
    bool labels_listed = false;  // the label asked for is known to be in the series
  };
  // What making a document takes besides its record, worked out once per call, or
  // once per series in BuildAllVersions.
  struct DocContext {
    const Loc* loc = nullptr;
    const SeriesRecord* series = nullptr;
    std::string parent_id;
    std::string latest_label;
    std::string latest_major;
  };
  Result<std::shared_ptr<const ObjectData>> BuildDocumentImpl(const Loc& loc, const SeriesRecord& series,
                                                              std::optional<std::string> label, bool pwc,
                                                              const SeriesHints* hints);
  // The one place that makes a document's properties, however its record was read.
  ObjectData AssembleDocument(const DocContext& c, const std::string& label, bool pwc, const std::string& type_id,
                              const types::TypeDef& type, ObjectRecord rec);
  // The part of a version's stamp its series gives: what AssembleDocument takes from
  // beside the record.
  static std::string SeriesStamp(const Loc& loc, const SeriesRecord& series, const std::string& parent_id,
                                 const std::string& latest_major);
  // The type ids (its type, then its secondary types) of the version record at `path`
  // when it was last read in the state `st` shows; nullopt when not known.
  std::optional<std::vector<std::string>> RecordTypes(const std::string& path, const FileStat& st);
  void RememberRecordTypes(const std::string& path, const FileStat& st, std::vector<std::string> type_ids);
  // A number for the build `type` of a type definition that no other build gets in this
  // process: the definition is held while the number is in use (guarded by memo_mu_).
  uint64_t TypeSerial(const std::shared_ptr<const types::TypeDef>& type);
  Result<ObjectData> BuildFromRecord(const std::string& path, BaseType base, const std::string& name,
                                     storage::Json& mem);

  Engine& engine_;

  // Documents as last built, by record path; valid only while built from the same
  // cached series record, version record and type, under the same parent id. The
  // records are held weakly: each check-in gives a document a new record path, and a
  // memo that kept the records alive kept every state of the series (each as long as
  // its version list) until the memo filled.
  struct DocMemo {
    std::weak_ptr<const storage::Json> series, record;  // `record` empty for an adopted document
    // An adopted document's series.json, which its table's entry makes and holds only
    // weakly (AdoptedDoc::SeriesJson): kept here so that it, and so the entry, stays
    // this built document's while its table's decoding lives (`adopted`).
    std::shared_ptr<const storage::Json> made;
    std::weak_ptr<const hand_edits::AdoptedDoc> adopted;
    std::shared_ptr<const types::TypeDef> type;
    std::string parent_id;
    std::shared_ptr<const ObjectData> obj;
  };
  const size_t max_documents_;
  std::mutex memo_mu_;
  std::unordered_map<std::string, DocMemo> memo_;
  size_t memo_sweep_at_ = kFirstMemoSweep;  // see repo/lookup/memo_sweep.h
  // Version records as BuildAllVersions last read them (guarded by memo_mu_): the types
  // each named, by record path, with the stat it was read at.
  struct RecordTypesSeen {
    FileStat stat;
    std::vector<std::string> type_ids;
  };
  static constexpr size_t kMaxRecordTypes = 20000;
  std::unordered_map<std::string, RecordTypesSeen> record_types_;
  // TypeSerial's numbers, by definition (held, so that no other build takes its address
  // while its number is in use); forgotten all at once past kMaxTypeSerials, the next
  // numbers new ones.
  static constexpr size_t kMaxTypeSerials = 1024;
  std::unordered_map<const types::TypeDef*, std::pair<std::shared_ptr<const types::TypeDef>, uint64_t>> type_serials_;
  uint64_t next_type_serial_ = 1;
};

}  // namespace folio::repo::lookup
