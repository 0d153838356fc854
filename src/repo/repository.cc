// folio::Repository: opening a repository, and the public methods, each handed to the
// part of the engine that owns it (see engine.h).
#include "folio/repository.h"

#include <chrono>

#include "folio/cmis_ids.h"
#include "repo/changes/write_check.h"
#include "repo/engine.h"
#include "repo/lookup/children_cursor.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/look_once.h"

namespace folio {
namespace {

// Reads take no lock, so a read that overlaps a change being applied can find a file
// gone that the record it read first still names (a working copy removed by a check-in).
// Such a read waits for the changes in flight and is made once more, now against a
// consistent state; what is then missing is really missing.
// Hand edits its lookups met are reconciled first, then it is read again (Rule R1,
// repo/hand_edits/reconciler.h).
template <typename F>
auto ReadConsistently(repo::Engine& e, F&& f) -> decltype(f()) {
  return e.reconciler.Reconciled(repo::hand_edits::Reconciler::Mode::kRead, [&]() -> decltype(f()) {
    auto r = f();
    if (r.ok() || r.status().kind() != ErrorKind::kStorage || !r.status().Is(std::errc::no_such_file_or_directory)) {
      return r;
    }
    e.committer.WaitForWriters();
    storage::LookOnce::ForgetAll();  // look again at what the first attempt saw
    return f();
  });
}

// A write: hand edits its lookups met are reconciled, before it is staged again when
// it failed for them (a failed write changed nothing), else after it.
template <typename F>
auto Write(repo::Engine& e, F&& f) -> decltype(f()) {
  return e.reconciler.Reconciled(repo::hand_edits::Reconciler::Mode::kWrite, std::forward<F>(f));
}

}  // namespace

std::string_view BaseTypeId(BaseType base) {
  switch (base) {
    case BaseType::kDocument: return cmis::kDocument;
    case BaseType::kFolder: return cmis::kFolder;
    case BaseType::kItem: return cmis::kItem;
    case BaseType::kRelationship: return cmis::kRelationship;
  }
  return cmis::kDocument;
}

Repository::Repository(std::unique_ptr<repo::Engine> engine) : engine_(std::move(engine)) {}
Repository::~Repository() = default;

Result<std::shared_ptr<Repository>> Repository::Open(Fs& fs, const std::string& base, bool read_only) {
  RepositoryOptions options;
  options.read_only = read_only;
  return Open(fs, base, options);
}

Result<std::shared_ptr<Repository>> Repository::Open(Fs& fs, const std::string& base,
                                                     const RepositoryOptions& repository_options) {
  repo::EngineOptions options;
  options.read_only = repository_options.read_only;
  options.committer.change_log.max_events = repository_options.change_log_max_events;
  options.committer.spares.grace = std::chrono::milliseconds(repository_options.spare_grace_ms);
  options.version_list_max = repository_options.version_list_max;
  options.caches = repository_options.caches;
  // The variant is known once the repository is loaded; events replayed before (by
  // recovery) are told in variant B's spelling.
  auto variant = std::make_shared<std::string>("B");
  if (repository_options.on_changes) {
    options.committer.on_events = [base, variant, tell = repository_options.on_changes](
                                      const std::vector<storage::ChangeEvent>& events) {
      std::vector<ChangeEventInfo> infos;
      infos.reserve(events.size());
      for (const storage::ChangeEvent& e : events) {
        infos.push_back({e.token, e.time_ms, e.type, e.object_id, e.base_type_id, e.type_id, e.readers});
      }
      tell(base, *variant, infos);
    };
  }
  auto engine = std::make_unique<repo::Engine>(fs, base, options);
  FOLIO_RETURN_IF_ERROR(engine->Load());
  *variant = engine->info.variant;
  return std::shared_ptr<Repository>(new Repository(std::move(engine)));
}

const RepositoryInfo& Repository::info() const { return engine_->info; }

Result<ObjectData> Repository::GetObject(const std::string& id) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o, GetObjectShared(id));
  return repo::lookup::TakeOrCopy(std::move(o));
}

Result<ObjectData> Repository::GetObjectByPath(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o, GetObjectByPathShared(path));
  return repo::lookup::TakeOrCopy(std::move(o));
}

Result<std::shared_ptr<const ObjectData>> Repository::GetObjectShared(const std::string& id) {
  return ReadConsistently(*engine_, [&]() -> Result<std::shared_ptr<const ObjectData>> {
    FOLIO_ASSIGN_OR_RETURN(repo::lookup::Target t, engine_->locator.ResolveId(id));
    return engine_->builder.BuildShared(t);
  });
}

Result<std::shared_ptr<const ObjectData>> Repository::GetObjectByPathShared(const std::string& path) {
  return ReadConsistently(*engine_, [&]() -> Result<std::shared_ptr<const ObjectData>> {
    FOLIO_ASSIGN_OR_RETURN(repo::lookup::Target t, engine_->locator.ResolvePath(path));
    return engine_->builder.BuildShared(t);
  });
}

namespace {

constexpr int64_t kStampLifeMs = 1000;

// A stamp's file as it was: not written since, and not even changed otherwise (the
// change time also moves with a link, a chmod or a rename of the file).
bool AsStamped(const FileStat& now, const FileStat& then) {
  return SameFileState(now, then) && now.ctime_ns == then.ctime_ns;
}

}  // namespace

std::optional<Repository::Stamp> Repository::StampNow(const std::string& path) {
  Stamp s;
  s.taken_ms = storage::SteadyNowMs();
  // The count first: a change applied after it was read moves it, whatever else is seen.
  s.applied = engine_->committer.changes_applied();
  auto log = engine_->fs.IdentityStat(engine_->layout.LogFile());
  if (!log.ok() || log->type != FileType::kFile || storage::IsRacy(log->mtime_ns)) return std::nullopt;
  auto file = engine_->fs.IdentityStat(engine_->layout.Dir(path));
  if (!file.ok() || file->type != FileType::kFile) return std::nullopt;
  s.log = *log;
  s.file = *file;
  return s;
}

bool Repository::Unchanged(const Stamp& s, const std::string& path) {
  if (storage::SteadyNowMs() - s.taken_ms >= kStampLifeMs) return false;
  if (engine_->committer.changes_applied() != s.applied) return false;
  auto log = engine_->fs.IdentityStat(engine_->layout.LogFile());
  if (!log.ok() || !AsStamped(*log, s.log)) return false;
  auto file = engine_->fs.IdentityStat(engine_->layout.Dir(path));
  return file.ok() && AsStamped(*file, s.file);
}

Result<ObjectData> Repository::GetLatestVersion(const std::string& id, bool major) {
  return ReadConsistently(*engine_, [&] { return engine_->versioning.LatestVersion(id, major); });
}

Result<ChildrenPage> Repository::GetChildren(const std::string& folder_id, uint64_t skip, uint64_t max,
                                             ChildOrder order) {
  return ReadConsistently(*engine_, [&]() -> Result<ChildrenPage> {
    FOLIO_ASSIGN_OR_RETURN(
        std::unique_ptr<ChildrenCursor> cursor,
        repo::lookup::PageCursor::Open(engine_->listings, engine_->locator, folder_id, skip, max, order, {}));
    ChildrenPage page;
    for (;;) {
      FOLIO_ASSIGN_OR_RETURN(std::optional<ObjectData> child, cursor->Next());
      if (!child) break;
      page.objects.push_back(std::move(*child));
    }
    page.total = cursor->total();
    page.has_more = cursor->has_more();
    page.damaged = cursor->damaged();
    return page;
  });
}

Result<std::unique_ptr<ChildrenCursor>> Repository::OpenChildren(const std::string& folder_id, uint64_t skip,
                                                                 uint64_t max, ChildOrder order, ChildFilter admit) {
  return ReadConsistently(*engine_, [&] {
    return repo::lookup::PageCursor::Open(engine_->listings, engine_->locator, folder_id, skip, max, order, admit);
  });
}

Result<uint64_t> Repository::VisitDescendants(const std::string& folder_id, const TreeRequest& request,
                                              TreeVisitor& visitor) {
  return engine_->reconciler.Reconciled(repo::hand_edits::Reconciler::Mode::kStream,
                                        [&] { return engine_->tree.Visit(folder_id, request, visitor); });
}

Result<std::vector<ObjectData>> Repository::GetParents(const std::string& id) {
  return ReadConsistently(*engine_, [&]() -> Result<std::vector<ObjectData>> {
    FOLIO_ASSIGN_OR_RETURN(repo::lookup::Target t, engine_->locator.ResolveId(id));
    std::vector<ObjectData> out;
    if (t.loc.base == BaseType::kRelationship) return out;
    if (t.loc.base == BaseType::kFolder && t.loc.folder.empty()) return out;
    const std::string parent_path = t.loc.ParentFolder();
    FOLIO_ASSIGN_OR_RETURN(std::string parent_id, engine_->locator.FolderIdAt(parent_path));
    FOLIO_ASSIGN_OR_RETURN(ObjectData parent,
                           engine_->builder.BuildFolder(repo::lookup::Loc{BaseType::kFolder, parent_id, parent_path,
                                                                          storage::BaseName(parent_path)}));
    out.push_back(std::move(parent));
    return out;
  });
}

Result<ContentStream> Repository::OpenContent(const std::string& id) {
  return ReadConsistently(*engine_, [&]() -> Result<ContentStream> {
    FOLIO_ASSIGN_OR_RETURN(repo::lookup::Target t, engine_->locator.ResolveId(id));
    if (t.loc.base != BaseType::kDocument) {
      return Constraint("object '" + id + "' is not a document and has no content");
    }
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, engine_->builder.Build(t));
    return OpenContent(o);
  });
}

Result<ContentStream> Repository::OpenContent(const ObjectData& o) {
  if (o.base != BaseType::kDocument) return Constraint("object '" + o.id + "' is not a document and has no content");
  if (!o.content) return Constraint("document '" + o.name + "' has no content");
  // The file that holds the content of `d` as built.
  const auto content_file = [this](const ObjectData& d) {
    const std::string folder = storage::ParentPath(d.path), name = storage::BaseName(d.path);
    return d.content_in_document_file ? engine_->layout.Child(folder, name)
           : d.is_pwc                 ? engine_->layout.PwcContent(folder, name)
                                      : engine_->layout.VersionContent(folder, name, d.version_label);
  };
  ContentStream s;
  s.info = *o.content;
  auto file = engine_->fs.Open(content_file(o));
  bool gone = !file.ok() && file.status().Is(std::errc::no_such_file_or_directory);
  if (file.ok() && o.content_in_document_file) {
    // The document's file is its content only while the document is adopted: its first
    // change through Folio may have put a later version there since it was built.
    FOLIO_ASSIGN_OR_RETURN(FileStat st, (*file)->StatAtOpen());
    FOLIO_ASSIGN_OR_RETURN(bool current, engine_->adopted.IsCurrentFile(o.parent_id, storage::BaseName(o.path),
                                                                        o.series_id, st));
    gone = !current;
  }
  if (gone) {
    // Moved or changed since the object was built: look it up again.
    engine_->committer.WaitForWriters();
    FOLIO_ASSIGN_OR_RETURN(ObjectData fresh, ReadConsistently(*engine_, [&]() -> Result<ObjectData> {
                             FOLIO_ASSIGN_OR_RETURN(repo::lookup::Target t, engine_->locator.ResolveId(o.id));
                             return engine_->builder.Build(t);
                           }));
    if (!fresh.content) return Constraint("document '" + fresh.name + "' has no content");
    s.info = *fresh.content;
    file = engine_->fs.Open(content_file(fresh));
  }
  if (!file.ok()) return file.status();
  s.file = std::move(*file);
  s.info.length = s.file->size();
  return s;
}

Result<std::vector<ObjectData>> Repository::GetAllVersions(const std::string& id) {
  std::vector<ObjectData> out;
  const auto start = [&out](size_t count) {
    out.clear();
    out.reserve(count);
  };
  const auto collect = [&out](ObjectData&& o) {
    out.push_back(std::move(o));
    return OkStatus();
  };
  FOLIO_RETURN_IF_ERROR(ReadConsistently(*engine_, [&] {
    return engine_->versioning.VisitAllVersions(id, false, start, collect);
  }).status());
  return out;
}

Result<size_t> Repository::VisitAllVersions(const std::string& id, bool newest_first,
                                            const std::function<void(size_t count)>& restart,
                                            const std::function<Status(const ObjectData&)>& visit) {
  return ReadConsistently(*engine_, [&] {
    return engine_->versioning.VisitAllVersions(id, newest_first, restart,
                                                [&visit](ObjectData&& o) { return visit(o); });
  });
}

Result<std::vector<ObjectData>> Repository::GetRelationships(const std::string& id, RelationshipDirection direction) {
  return ReadConsistently(*engine_, [&] { return engine_->relationships.Of(id, direction); });
}

Result<std::vector<ObjectData>> Repository::GetAllRelationships() {
  return ReadConsistently(*engine_, [&] { return engine_->relationships.All(); });
}

Result<std::vector<ObjectData>> Repository::GetCheckedOut(const std::string& folder_id) {
  return ReadConsistently(*engine_, [&] { return engine_->versioning.CheckedOut(folder_id); });
}

Result<ObjectData> Repository::CreateFolder(const std::string& parent_id, const NewObject& obj,
                                            const std::string& user, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->creator.CreateFolder(parent_id, obj, user, check); });
}
Result<ObjectData> Repository::CreateDocument(const std::string& parent_id, const NewObject& obj,
                                              const std::optional<ContentSource>& content, VersioningState state,
                                              const std::string& user, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->creator.CreateDocument(parent_id, obj, content, state, user, check); });
}
Result<ObjectData> Repository::CreateItem(const std::string& parent_id, const NewObject& obj,
                                          const std::string& user, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->creator.CreateItem(parent_id, obj, user, check); });
}
Result<ObjectData> Repository::CreateRelationship(const NewObject& obj, const std::string& user,
                                                  const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->creator.CreateRelationship(obj, user, check); });
}
Result<std::unique_ptr<Upload>> Repository::NewUpload() { return engine_->uploads.New(); }

Result<ObjectData> Repository::SetAcl(const std::string& id, const std::vector<Ace>& acl, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->updater.ChangeAcl(id, [&](const std::vector<Ace>&) { return acl; }, check); });
}
Result<ObjectData> Repository::ApplyAcl(const std::string& id, const std::vector<Ace>& add,
                                        const std::vector<Ace>& remove, const WriteCheck& check,
                                        AclPropagation propagation) {
  return Write(*engine_, [&] { return engine_->updater.ChangeAcl(
      id, [&](const std::vector<Ace>& current) { return repo::ApplyAces(current, add, remove); }, check,
      propagation == AclPropagation::kPropagate); });
}
Result<size_t> Repository::RemovePrincipal(const std::string& principal) {
  return Write(*engine_, [&] {
    return engine_->updater.ChangeEveryAcl([&](const std::vector<Ace>& current) {
      std::vector<Ace> kept;
      for (const Ace& ace : current) {
        if (ace.principal != principal) kept.push_back(ace);
      }
      return kept;
    });
  });
}

Result<ObjectData> Repository::UpdateProperties(const std::string& id, const Json& changes, const std::string& user,
                                                const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->updater.UpdateProperties(id, changes, user, check); });
}
Result<ObjectData> Repository::SetContent(const std::string& id, const ContentSource& content, bool overwrite,
                                          const std::string& user, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->updater.SetContent(id, content, overwrite, user, check); });
}
Result<ObjectData> Repository::DeleteContent(const std::string& id, const std::string& user,
                                             const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->updater.SetContent(id, std::nullopt, true, user, check); });
}
Status Repository::Delete(const std::string& id, bool all_versions, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->remover.Delete(id, all_versions, check); });
}
Result<std::vector<std::string>> Repository::DeleteTree(const std::string& folder_id, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->remover.DeleteTree(folder_id, check); });
}
Result<ObjectData> Repository::Move(const std::string& id, const std::string& target_folder_id,
                                    const std::string& source_folder_id, const std::string& user,
                                    const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->mover.Move(id, target_folder_id, source_folder_id, user, check); });
}

Result<ObjectData> Repository::CheckOut(const std::string& id, const std::string& user, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->versioning.CheckOut(id, user, check); });
}
Result<ObjectData> Repository::CheckIn(const std::string& pwc_id, const CheckInRequest& request,
                                       const std::string& user, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->versioning.CheckIn(pwc_id, request, user, check); });
}
Status Repository::CancelCheckOut(const std::string& pwc_id, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->versioning.CancelCheckOut(pwc_id, check); });
}

Result<Json> Repository::GetTypeDefinition(const std::string& type_id) {
  FOLIO_ASSIGN_OR_RETURN(auto t, engine_->types.Get(type_id));
  return t->json;
}
Result<std::shared_ptr<const PropertyDefinitionIndex>> Repository::GetPropertyDefinitions(const std::string& type_id) {
  return engine_->types.Definitions(type_id);
}
Result<std::vector<Json>> Repository::GetTypeChildren(const std::string& type_id) {
  return engine_->types.Children(type_id);
}
namespace {
// A type decides what every object of the repository may be: type management is checked
// on the root folder, as the change finds it.
std::function<Status()> OnRootFolder(repo::Engine& engine, const std::string& root_id, const WriteCheck& check) {
  if (check.trusted()) return {};
  return [&engine, root_id, &check] {
    return repo::changes::CheckWrite(check, WriteRole::kObject, engine.builder,
                                     repo::lookup::Loc(BaseType::kFolder, root_id, "", ""));
  };
}
}  // namespace

Result<Json> Repository::CreateType(const Json& definition, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->types.Create(definition, OnRootFolder(*engine_, info().root_folder_id, check)); });
}
Result<Json> Repository::UpdateType(const Json& definition, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->types.Update(definition, OnRootFolder(*engine_, info().root_folder_id, check)); });
}
Status Repository::DeleteType(const std::string& type_id, const WriteCheck& check) {
  return Write(*engine_, [&] { return engine_->types.Delete(
      type_id, [&](bool has_markers) { return engine_->type_usage.CheckUnused(type_id, has_markers); },
      OnRootFolder(*engine_, info().root_folder_id, check)); });
}

Result<ChangeLogPage> Repository::ReadChanges(uint64_t from, size_t max) {
  storage::ChangeLogStore& log = engine_->committer.change_log();
  ChangeLogPage page;
  FOLIO_ASSIGN_OR_RETURN(page.first_kept, log.FirstToken());
  FOLIO_ASSIGN_OR_RETURN(page.truncated, log.Truncated());
  FOLIO_ASSIGN_OR_RETURN(page.latest, log.LastToken());
  if (from != 0 && page.first_kept != 0 && from < page.first_kept && page.truncated) {
    return Constraint("change log token " + std::to_string(from) + " is older than the oldest kept, " +
                      std::to_string(page.first_kept));
  }
  FOLIO_ASSIGN_OR_RETURN(std::vector<storage::ChangeEvent> events, log.Read(from, max + 1));
  page.has_more = events.size() > max;
  if (page.has_more) events.resize(max);
  for (storage::ChangeEvent& e : events) {
    page.events.push_back({e.token, e.time_ms, std::move(e.type), std::move(e.object_id), std::move(e.base_type_id),
                           std::move(e.type_id), std::move(e.readers)});
  }
  return page;
}

Result<std::optional<std::vector<std::string>>> Repository::DeletionReaders(const std::string& object_id,
                                                                            uint64_t token) {
  return engine_->deletions.After(object_id, token);
}

Result<uint64_t> Repository::LatestChangeToken() { return engine_->committer.change_log().LastToken(); }

Result<ChangeLogStatus> Repository::GetChangeLogStatus() {
  ChangeLogStatus status;
  FOLIO_ASSIGN_OR_RETURN(status.latest, engine_->committer.change_log().LastToken());
  FOLIO_ASSIGN_OR_RETURN(status.truncated, engine_->committer.change_log().Truncated());
  return status;
}

Status Repository::RecordSecurityChange(const std::string& object_id) {
  return Write(*engine_, [&] {
    return engine_->committer.Run([&](storage::ChangeSet& change) -> Status {
      FOLIO_ASSIGN_OR_RETURN(repo::lookup::Target t, engine_->locator.ResolveId(object_id));
      FOLIO_ASSIGN_OR_RETURN(ObjectData o, engine_->builder.Build(t));
      change.Record(repo::changes::Event("security", o.id, o.base, o.type_id));
      return OkStatus();
    });
  });
}

std::string Repository::TreePath(const std::string& path) const { return engine_->layout.Dir(path); }

std::string Repository::ToolTempPrefix() { return std::string(storage::kToolTempPrefix); }

Result<bool> Repository::HasDocumentRecord(const std::string& path) {
  const std::string folder = storage::ParentPath(path), name = storage::BaseName(path);
  if (Exists(engine_->fs, engine_->layout.SeriesFile(folder, name))) return true;
  FOLIO_ASSIGN_OR_RETURN(auto doc, engine_->adopted.FindAt(folder, name));
  return doc != nullptr;
}

void Repository::SetMimeSniffer(MimeSniffer sniffer) { engine_->adopter.SetMimeSniffer(std::move(sniffer)); }

Status Repository::Checkpoint() { return engine_->committer.Checkpoint(); }

Repository::ReadOnce::ReadOnce() { repo::lookup::ObjectBuilder::EnterReadOnce(); }

Repository::ReadOnce::~ReadOnce() { repo::lookup::ObjectBuilder::LeaveReadOnce(); }

bool Repository::IsDamage(const Status& s) { return repo::lookup::Listings::IsDamage(s); }

void Repository::LogLeftOut(const std::string& object, const Status& why) { engine_->listings.LogDamaged(object, why); }

void Repository::DropCaches() {
  // Built documents and listings first: they hold records the caches below would
  // otherwise find still alive.
  engine_->listings.DropCaches();
  engine_->builder.DropCaches();
  engine_->adopted.DropCaches();
  engine_->locator.DropCaches();
  engine_->records.DropCaches();
}

}  // namespace folio
