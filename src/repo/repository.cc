// folio::Repository: opening a repository, and the public methods, which forward to
// RepoImpl (see repo_impl.h for where each lives).
#include "folio/repository.h"

#include "repo/repo_impl.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio {
namespace {

// Stored files may hold anything (a person can edit them): a JSON decoding exception
// that a decoder did not foresee becomes kStorage here, and never escapes the engine
// (STYLE §2: nothing is thrown across a layer).
template <typename F>
auto NoThrow(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const nlohmann::json::exception& e) {
    return StorageError(std::string("malformed stored data: ") + e.what());
  }
}

// Reads take no lock, so a read that overlaps a change being applied can find a file
// gone that the record it read first still names (a working copy removed by a check-in).
// Such a read waits for the change in flight (the write lock) and is made once more, now
// against a consistent state; what is then missing is really missing.
template <typename F>
auto ReadConsistently(repo::RepoImpl& impl, F&& f) -> decltype(f()) {
  auto r = NoThrow(f);
  if (r.ok() || r.status().kind() != ErrorKind::kStorage || !r.status().Is(std::errc::no_such_file_or_directory)) {
    return r;
  }
  auto guard = impl.LockForWrite(/*internal=*/true);
  if (!guard.ok()) return r;
  return NoThrow(f);
}

}  // namespace

std::string_view BaseTypeId(BaseType base) {
  switch (base) {
    case BaseType::kDocument: return "cmis:document";
    case BaseType::kFolder: return "cmis:folder";
    case BaseType::kItem: return "cmis:item";
    case BaseType::kRelationship: return "cmis:relationship";
  }
  return "cmis:document";
}

namespace repo {

RepoImpl::RepoImpl(Fs& fs, std::string base, bool read_only)
    : fs_(fs), layout_(base), read_only_(read_only), types_(fs, layout_) {}

Status RepoImpl::Load() {
  auto j = storage::ReadJsonFile(fs_, layout_.RepositoryFile());
  if (!j.ok()) {
    if (j.status().Is(std::errc::no_such_file_or_directory) || j.status().Is(std::errc::not_a_directory)) {
      return ObjectNotFound("no repository '" + layout_.base() + "'");
    }
    return j.status();
  }
  const Json& r = *j;
  for (const char* key : {"repositoryId", "rootFolderId", "variant"}) {
    if (!r.contains(key) || !r[key].is_string()) {
      return StorageError("'" + layout_.RepositoryFile() + "' lacks the field '" + key + "'");
    }
  }
  info_.domain_id = storage::ParentPath(layout_.base());
  info_.repository_id = r["repositoryId"];
  info_.name = r.value("repositoryName", info_.repository_id);
  info_.description = r.value("description", "");
  info_.variant = r["variant"];
  const Result<int64_t> created = storage::ParseIsoMs(r.value("created", ""));
  info_.created_ms = created.ok() ? *created : 0;
  info_.root_folder_id = r["rootFolderId"];
  if (!read_only_) {
    // Complete what an interrupted process committed; cheap: the journal is usually empty.
    FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  }
  return OkStatus();
}

}  // namespace repo

Repository::Repository(std::unique_ptr<repo::RepoImpl> impl) : impl_(std::move(impl)) {}
Repository::~Repository() = default;

Result<std::shared_ptr<Repository>> Repository::Open(Fs& fs, const std::string& base, bool read_only) {
  auto impl = std::make_unique<repo::RepoImpl>(fs, base, read_only);
  FOLIO_RETURN_IF_ERROR(impl->Load());
  return std::shared_ptr<Repository>(new Repository(std::move(impl)));
}

const RepositoryInfo& Repository::info() const { return impl_->info(); }

Result<ObjectData> Repository::GetObject(const std::string& id) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o, GetObjectShared(id));
  return repo::TakeOrCopy(std::move(o));
}

Result<ObjectData> Repository::GetObjectByPath(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> o, GetObjectByPathShared(path));
  return repo::TakeOrCopy(std::move(o));
}

Result<std::shared_ptr<const ObjectData>> Repository::GetObjectShared(const std::string& id) {
  return ReadConsistently(*impl_, [&]() -> Result<std::shared_ptr<const ObjectData>> {
    FOLIO_ASSIGN_OR_RETURN(repo::Target t, impl_->ResolveId(id));
    return impl_->BuildShared(t);
  });
}

Result<std::shared_ptr<const ObjectData>> Repository::GetObjectByPathShared(const std::string& path) {
  return ReadConsistently(*impl_, [&]() -> Result<std::shared_ptr<const ObjectData>> {
    FOLIO_ASSIGN_OR_RETURN(repo::Target t, impl_->ResolvePath(path));
    return impl_->BuildShared(t);
  });
}

Result<ObjectData> Repository::GetLatestVersion(const std::string& id, bool major) {
  return ReadConsistently(*impl_, [&]() -> Result<ObjectData> {
    FOLIO_ASSIGN_OR_RETURN(repo::Target t, impl_->ResolveId(id));
    if (t.loc.base != BaseType::kDocument) return impl_->Build(t);
    FOLIO_ASSIGN_OR_RETURN(repo::SeriesRecord series, impl_->ReadSeries(t.loc.folder, t.loc.name));
    if (!major) {
      if (series.versions.empty()) return ObjectNotFound("document '" + t.loc.name + "' has no version yet");
      return impl_->BuildDocument(t.loc, series, std::nullopt, false);
    }
    for (auto it = series.versions.rbegin(); it != series.versions.rend(); ++it) {
      FOLIO_ASSIGN_OR_RETURN(ObjectData o, impl_->BuildDocument(t.loc, series, *it, false));
      if (o.properties.value("cmis:isMajorVersion", false)) return o;
    }
    return ObjectNotFound("document '" + t.loc.name + "' has no major version");
  });
}

Result<ChildrenPage> Repository::GetChildren(const std::string& folder_id, uint64_t skip, uint64_t max,
                                             ChildOrder order) {
  return ReadConsistently(*impl_, [&]() -> Result<ChildrenPage> {
    return impl_->Children(folder_id, skip, max, order);
  });
}

Result<std::vector<ObjectData>> Repository::GetParents(const std::string& id) {
  return ReadConsistently(*impl_, [&]() -> Result<std::vector<ObjectData>> {
    FOLIO_ASSIGN_OR_RETURN(repo::Target t, impl_->ResolveId(id));
    std::vector<ObjectData> out;
    if (t.loc.base == BaseType::kRelationship) return out;
    if (t.loc.base == BaseType::kFolder && t.loc.folder.empty()) return out;
    const std::string parent_path = t.loc.FolderPathOfParent();
    FOLIO_ASSIGN_OR_RETURN(std::string parent_id, impl_->FolderIdAt(parent_path));
    FOLIO_ASSIGN_OR_RETURN(ObjectData parent,
                           impl_->BuildFolder(repo::Loc{BaseType::kFolder, parent_id, parent_path,
                                                        storage::BaseName(parent_path)}));
    out.push_back(std::move(parent));
    return out;
  });
}

Result<ContentStream> Repository::OpenContent(const std::string& id) {
  return ReadConsistently(*impl_, [&]() -> Result<ContentStream> {
    FOLIO_ASSIGN_OR_RETURN(repo::Target t, impl_->ResolveId(id));
    if (t.loc.base != BaseType::kDocument) return Constraint("object '" + id + "' is not a document and has no content");
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, impl_->Build(t));
    if (!o.content) return Constraint("document '" + o.name + "' has no content");
    const std::string path = o.is_pwc ? impl_->layout_.PwcContent(t.loc.folder, t.loc.name)
                                      : impl_->layout_.VersionContent(t.loc.folder, t.loc.name, o.version_label);
    ContentStream s;
    s.info = *o.content;
    FOLIO_ASSIGN_OR_RETURN(s.file, impl_->fs_.Open(path));
    s.info.length = s.file->size();
    return s;
  });
}

Result<std::vector<ObjectData>> Repository::GetAllVersions(const std::string& id) {
  return ReadConsistently(*impl_, [&]() -> Result<std::vector<ObjectData>> {
    return impl_->AllVersions(id);
  });
}
Result<std::vector<ObjectData>> Repository::GetRelationships(const std::string& id, RelationshipDirection direction) {
  return ReadConsistently(*impl_, [&]() -> Result<std::vector<ObjectData>> {
    return impl_->Relationships(id, direction);
  });
}
Result<size_t> Repository::VisitAllVersions(const std::string& id, bool newest_first,
                                            const std::function<void(size_t count)>& restart,
                                            const std::function<Status(const ObjectData&)>& visit) {
  return ReadConsistently(*impl_, [&]() -> Result<size_t> {
    return impl_->VisitAllVersions(id, newest_first, restart, [&visit](ObjectData&& o) { return visit(o); });
  });
}
Result<std::vector<ObjectData>> Repository::GetCheckedOut(const std::string& folder_id) {
  return ReadConsistently(*impl_, [&]() -> Result<std::vector<ObjectData>> {
    return impl_->CheckedOut(folder_id);
  });
}

Result<ObjectData> Repository::CreateFolder(const std::string& parent_id, const NewObject& obj,
                                            const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->CreateFolder(parent_id, obj, user);
  });
}
Result<ObjectData> Repository::CreateDocument(const std::string& parent_id, const NewObject& obj,
                                              const std::optional<ContentSource>& content, VersioningState state,
                                              const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->CreateDocument(parent_id, obj, content, state, user);
  });
}
Result<ObjectData> Repository::CreateItem(const std::string& parent_id, const NewObject& obj,
                                          const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->CreateItem(parent_id, obj, user);
  });
}
Result<ObjectData> Repository::CreateRelationship(const NewObject& obj, const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->CreateRelationship(obj, user);
  });
}
Result<Upload> Repository::NewUpload() {
  return NoThrow([&]() -> Result<Upload> {
    return impl_->NewUpload();
  });
}

Result<ObjectData> Repository::UpdateProperties(const std::string& id, const Json& changes, const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->UpdateProperties(id, changes, user);
  });
}
Result<ObjectData> Repository::SetContent(const std::string& id, const ContentSource& content, bool overwrite,
                                          const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->SetContent(id, content, overwrite, user);
  });
}
Result<ObjectData> Repository::DeleteContent(const std::string& id, const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->SetContent(id, std::nullopt, true, user);
  });
}
Status Repository::Delete(const std::string& id, bool all_versions) {
  return NoThrow([&]() -> Status {
    return impl_->Delete(id, all_versions);
  });
}
Result<std::vector<std::string>> Repository::DeleteTree(const std::string& folder_id) {
  return NoThrow([&]() -> Result<std::vector<std::string>> {
    return impl_->DeleteTree(folder_id);
  });
}
Result<ObjectData> Repository::Move(const std::string& id, const std::string& target_folder_id,
                                    const std::string& source_folder_id, const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->Move(id, target_folder_id, source_folder_id, user);
  });
}

Result<ObjectData> Repository::CheckOut(const std::string& id, const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->CheckOut(id, user);
  });
}
Result<ObjectData> Repository::CheckIn(const std::string& pwc_id, const CheckInRequest& request,
                                       const std::string& user) {
  return NoThrow([&]() -> Result<ObjectData> {
    return impl_->CheckIn(pwc_id, request, user);
  });
}
Status Repository::CancelCheckOut(const std::string& pwc_id) {
  return NoThrow([&]() -> Status {
    return impl_->CancelCheckOut(pwc_id);
  });
}

Result<Json> Repository::GetTypeDefinition(const std::string& type_id) {
  return NoThrow([&]() -> Result<Json> {
    FOLIO_ASSIGN_OR_RETURN(auto t, impl_->types_.Get(type_id));
    return t->json;
  });
}
Result<std::vector<Json>> Repository::GetTypeChildren(const std::string& type_id) {
  return NoThrow([&]() -> Result<std::vector<Json>> {
    return impl_->types_.Children(type_id);
  });
}
Result<Json> Repository::CreateType(const Json& definition) {
  return NoThrow([&]() -> Result<Json> {
    FOLIO_ASSIGN_OR_RETURN(repo::WriteGuard guard, impl_->LockForWrite());
    return impl_->types_.Create(definition);
  });
}
Status Repository::DeleteType(const std::string& type_id) {
  return NoThrow([&]() -> Status {
    FOLIO_ASSIGN_OR_RETURN(repo::WriteGuard guard, impl_->LockForWrite());
    return impl_->types_.Delete(type_id);
  });
}

}  // namespace folio
