// A repository as one caller may use it; see guarded_repository.h.
#include "repo/acl/guarded_repository.h"

#include <algorithm>
#include <utility>

#include "folio/cmis_ids.h"

namespace folio::acl {
namespace {

// Hands the visitor only what the caller may read: an object it may not read is left
// out with everything below it, as a listing leaves it out (docs/API.md §11.3).
class ReadableOnly final : public TreeVisitor {
 public:
  ReadableOnly(const Checker& checker, TreeVisitor& inner) : checker_(checker), inner_(inner) {}
  Status Enter(const ObjectData& object, int64_t level) override {
    if (hidden_ > 0 || !checker_.MayRead(object)) {
      ++hidden_;
      return OkStatus();
    }
    return inner_.Enter(object, level);
  }
  Status Leave() override {
    if (hidden_ > 0) {
      --hidden_;
      return OkStatus();
    }
    return inner_.Leave();
  }

 private:
  const Checker& checker_;
  TreeVisitor& inner_;
  int hidden_ = 0;  // depth inside an object left out
};

}  // namespace

GuardedRepository::GuardedRepository(std::shared_ptr<Repository> repo, Checker checker)
    : repo_(std::move(repo)), checker_(std::move(checker)) {}

Status GuardedRepository::UnreadableOr(const std::string& id, Status not_found) {
  if (not_found.kind() != ErrorKind::kObjectNotFound) return not_found;
  // A version or working copy id is "{series};{label}" (include/folio/repository.h):
  // one of a document the caller may not read answers as any denial does, whether or
  // not that version exists, so that the answer tells nothing of the document.
  const size_t semi = id.find(';');
  if (semi == std::string::npos || semi == 0) return not_found;
  auto series = repo_->GetObjectShared(id.substr(0, semi));
  if (!series.ok()) return not_found;
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, **series));
  return not_found;
}

Result<std::shared_ptr<const ObjectData>> GuardedRepository::GetObject(const std::string& id, Action action) {
  Result<std::shared_ptr<const ObjectData>> object = repo_->GetObjectShared(id);
  if (!object.ok()) return UnreadableOr(id, object.status());
  FOLIO_RETURN_IF_ERROR(checker_.Require(action, **object));
  return object;
}

Result<std::shared_ptr<const ObjectData>> GuardedRepository::GetObjectByPath(const std::string& path, Action action) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> object, repo_->GetObjectByPathShared(path));
  FOLIO_RETURN_IF_ERROR(checker_.Require(action, *object));
  return object;
}

Result<ObjectData> GuardedRepository::GetLatestVersion(const std::string& id, bool major) {
  FOLIO_ASSIGN_OR_RETURN(ObjectData latest, repo_->GetLatestVersion(id, major));
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, latest));
  return latest;
}

Status GuardedRepository::Require(Action action, const ObjectData& object) const {
  return checker_.Require(action, object);
}

Status GuardedRepository::RequireTypeManagement() {
  if (SeesEverything()) return OkStatus();
  FOLIO_ASSIGN_OR_RETURN(auto root, repo_->GetObjectShared(info().root_folder_id));
  return checker_.Require(Action::kManageTypes, *root);
}

Result<std::vector<ObjectData>> GuardedRepository::GetParents(const ObjectData& object) {
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, object));
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> parents, repo_->GetParents(object.id));
  if (SeesEverything()) return parents;
  std::erase_if(parents, [&](const ObjectData& p) { return !checker_.MayRead(p); });
  return parents;
}

Result<std::optional<ObjectData>> GuardedRepository::GetFolderParent(const ObjectData& folder) {
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, folder));
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> parents, repo_->GetParents(folder.id));
  if (parents.empty()) return std::optional<ObjectData>();
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, parents.front()));
  return std::optional<ObjectData>(std::move(parents.front()));
}

Result<ContentStream> GuardedRepository::OpenContent(const ObjectData& document) {
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, document));
  return repo_->OpenContent(document);
}

Result<std::unique_ptr<ChildrenCursor>> GuardedRepository::OpenChildren(const ObjectData& folder, uint64_t skip,
                                                                        uint64_t max, ChildOrder order) {
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, folder));
  // Unreadable children are left out before paging: numItems, hasMoreItems and the
  // pages never count them.
  Repository::ChildFilter admit;
  if (!SeesEverything()) {
    admit = [checker = checker_](const ObjectData& child) { return checker.MayRead(child); };
  }
  return repo_->OpenChildren(folder.id, skip, max, order, std::move(admit));
}

Result<uint64_t> GuardedRepository::VisitDescendants(const ObjectData& folder, const TreeRequest& request,
                                                      TreeVisitor& visitor) {
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, folder));
  if (SeesEverything()) return repo_->VisitDescendants(folder.id, request, visitor);
  ReadableOnly readable(checker_, visitor);
  return repo_->VisitDescendants(folder.id, request, readable);
}

bool GuardedRepository::EndsReadable(const ObjectData& relationship) {
  for (const char* end : {cmis::kSourceId, cmis::kTargetId}) {
    const auto it = relationship.properties.find(end);
    if (it == relationship.properties.end() || !it->is_string()) return false;
    auto object = repo_->GetObjectShared(it->get<std::string>());
    if (!object.ok() || !checker_.MayRead(**object)) return false;
  }
  return true;
}

Result<std::vector<ObjectData>> GuardedRepository::GetRelationships(const ObjectData& object,
                                                                    RelationshipDirection direction) {
  FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, object));
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> all, repo_->GetRelationships(object.id, direction));
  if (SeesEverything()) return all;
  // A relationship shows only when the caller may read it and both its ends.
  std::erase_if(all, [&](const ObjectData& r) { return !(checker_.MayRead(r) && EndsReadable(r)); });
  return all;
}

Result<std::vector<ObjectData>> GuardedRepository::GetCheckedOut(const ObjectData* folder) {
  if (folder != nullptr) FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, *folder));
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> docs, repo_->GetCheckedOut(folder == nullptr ? "" : folder->id));
  std::erase_if(docs, [&](const ObjectData& d) { return !checker_.MayRead(d); });
  return docs;
}

Result<size_t> GuardedRepository::VisitAllVersions(const std::string& id, bool newest_first,
                                                   const std::function<void(size_t count)>& restart,
                                                   const std::function<Status(const ObjectData&)>& visit) {
  bool first = true;
  const auto begin = [&](size_t count) {
    first = true;
    restart(count);
  };
  const auto checked = [&](const ObjectData& v) -> Status {
    // A version series shares its ACL: the first version tells for all (a series
    // named by id alone is checked here, before anything of it is visited).
    if (first) FOLIO_RETURN_IF_ERROR(checker_.Require(Action::kRead, v));
    first = false;
    return visit(v);
  };
  return repo_->VisitAllVersions(id, newest_first, begin, checked);
}

Result<query::BoundQuery> GuardedRepository::BindQuery(const query::ParsedQuery& parsed,
                                                       const query::IdSpelling& spelling) {
  return query::Bind(parsed, *repo_, spelling);
}

Result<QueryCounts> GuardedRepository::RunQuery(query::QueryIndex& index, const query::BoundQuery& bound,
                                                query::QueryPage page,
                                                const std::function<Status(const ObjectData&, double)>& visit) {
  // The index keeps only what the caller may read (its readers table), so that paging
  // and numItems count what the caller sees; a domain administrator reads everything
  // and pays nothing for it (docs/API.md §12.6).
  page.readers.reset();
  if (!SeesEverything()) page.readers = checker_.caller().MatchingPrincipals();
  FOLIO_ASSIGN_OR_RETURN(query::QueryHits hits, index.Run(*repo_, bound, page));
  for (const query::QueryHit& hit : hits.hits) {
    auto object = repo_->GetObjectShared(hit.object_id);
    if (!object.ok()) {
      // Deleted since the index answered (by another process): never shown.
      if (object.status().kind() == ErrorKind::kObjectNotFound) continue;
      if (!Repository::IsDamage(object.status())) return object.status();
      repo_->LogLeftOut(hit.object_id, object.status());  // spoils only itself
      continue;
    }
    // The index matched only what the caller may read; an ACL changed since it answered
    // (by another process) is looked at again here, so nothing unreadable is shown.
    if (!checker_.MayRead(**object)) continue;
    FOLIO_RETURN_IF_ERROR(visit(**object, hit.score));
  }
  return QueryCounts{hits.total, hits.hits.size()};
}

Result<bool> GuardedRepository::Sees(const ChangeEventInfo& e, const ObjectData* now) {
  if (SeesEverything()) return true;
  if (e.type != "deleted" && now != nullptr) return checker_.MayRead(*now);
  std::optional<std::vector<std::string>> readers;
  if (e.type == "deleted") {
    readers = e.readers;
  } else {
    FOLIO_ASSIGN_OR_RETURN(readers, repo_->DeletionReaders(e.object_id, e.token));
  }
  if (!readers) return false;
  return std::any_of(readers->begin(), readers->end(),
                     [&](const std::string& principal) { return checker_.caller().Matches(principal); });
}

Result<VisibleChanges> GuardedRepository::ReadChanges(uint64_t from, size_t max, bool with_objects) {
  VisibleChanges out;
  out.filtered = !SeesEverything();
  // Whether the caller sees an event depends on its object as it is now.
  const bool read_objects = with_objects || out.filtered;
  const size_t batch = out.filtered ? std::max<size_t>(max, 100) : max;
  FOLIO_ASSIGN_OR_RETURN(ChangeLogPage page, repo_->ReadChanges(from, batch));
  out.latest = page.latest;
  for (;;) {
    for (ChangeEventInfo& e : page.events) {
      VisibleChange shown;
      if (read_objects && e.type != "deleted") {
        auto now = repo_->GetObject(e.object_id);
        if (now.ok()) {
          shown.object = std::move(*now);
          shown.exists = true;
        } else if (now.status().kind() != ErrorKind::kObjectNotFound) {
          if (!Repository::IsDamage(now.status())) return now.status();
          // A damaged record spoils only its object: the event says what it knows itself.
          repo_->LogLeftOut(e.object_id, now.status());
        }
      }
      if (!shown.exists) {
        shown.object.id = e.object_id;
        shown.object.type_id = e.type_id;
        for (BaseType b : {BaseType::kDocument, BaseType::kFolder, BaseType::kItem, BaseType::kRelationship}) {
          if (BaseTypeId(b) == e.base_type_id) shown.object.base = b;
        }
      }
      FOLIO_ASSIGN_OR_RETURN(bool sees, Sees(e, shown.exists ? &shown.object : nullptr));
      if (!sees) continue;
      if (out.events.size() == max) {
        out.has_more = true;
        return out;
      }
      shown.event = std::move(e);
      out.events.push_back(std::move(shown));
    }
    if (!out.filtered || !page.has_more || page.events.empty()) {
      out.has_more = !out.filtered && page.has_more;
      return out;
    }
    FOLIO_ASSIGN_OR_RETURN(page, repo_->ReadChanges(page.events.back().token + 1, batch));
  }
}

Result<ObjectData> GuardedRepository::CreateFolder(const std::string& parent_id, const NewObject& obj) {
  return repo_->CreateFolder(parent_id, obj, checker_.user(), checker_.ForWrite(Action::kCreateChild));
}

Result<ObjectData> GuardedRepository::CreateItem(const std::string& parent_id, const NewObject& obj) {
  return repo_->CreateItem(parent_id, obj, checker_.user(), checker_.ForWrite(Action::kCreateChild));
}

Result<ObjectData> GuardedRepository::CreateDocument(const std::string& parent_id, const NewObject& obj,
                                                     const std::optional<ContentSource>& content,
                                                     VersioningState state) {
  return repo_->CreateDocument(parent_id, obj, content, state, checker_.user(),
                               checker_.ForWrite(Action::kCreateChild));
}

Result<ObjectData> GuardedRepository::CreateRelationship(const NewObject& obj) {
  return repo_->CreateRelationship(obj, checker_.user(), checker_.ForWrite(Action::kCreateRelationship));
}

Result<ObjectData> GuardedRepository::UpdateProperties(const std::string& id, const Json& changes) {
  return repo_->UpdateProperties(id, changes, checker_.user(), checker_.ForWrite(Action::kUpdateProperties));
}

Result<ObjectData> GuardedRepository::SetContent(const std::string& id, const ContentSource& content, bool overwrite) {
  return repo_->SetContent(id, content, overwrite, checker_.user(), checker_.ForWrite(Action::kSetContent));
}

Result<ObjectData> GuardedRepository::DeleteContent(const std::string& id) {
  return repo_->DeleteContent(id, checker_.user(), checker_.ForWrite(Action::kDeleteContent));
}

Status GuardedRepository::Delete(const std::string& id, bool all_versions) {
  return repo_->Delete(id, all_versions, checker_.ForWrite(Action::kDelete));
}

Result<std::vector<std::string>> GuardedRepository::DeleteTree(const std::string& folder_id) {
  return repo_->DeleteTree(folder_id, checker_.ForWrite(Action::kDeleteTree));
}

Result<ObjectData> GuardedRepository::Move(const std::string& id, const std::string& target_folder_id,
                                           const std::string& source_folder_id) {
  return repo_->Move(id, target_folder_id, source_folder_id, checker_.user(), checker_.ForWrite(Action::kMove));
}

Result<ObjectData> GuardedRepository::ApplyAcl(const std::string& id, const std::vector<Ace>& add,
                                               const std::vector<Ace>& remove,
                                               Repository::AclPropagation propagation) {
  return repo_->ApplyAcl(id, add, remove, checker_.ForWrite(Action::kApplyAcl), propagation);
}

Result<ObjectData> GuardedRepository::CheckOut(const std::string& id) {
  return repo_->CheckOut(id, checker_.user(), checker_.ForWrite(Action::kCheckOut));
}

Result<ObjectData> GuardedRepository::CheckIn(const std::string& pwc_id, const CheckInRequest& request) {
  // Entries changed with the check-in are an ACL change: they need what applyACL needs.
  const bool changes_acl = !request.add_aces.empty() || !request.remove_aces.empty();
  return repo_->CheckIn(pwc_id, request, checker_.user(),
                        checker_.ForWrite(changes_acl ? Action::kApplyAcl : Action::kCheckIn));
}

Status GuardedRepository::CancelCheckOut(const std::string& pwc_id) {
  return repo_->CancelCheckOut(pwc_id, checker_.ForWrite(Action::kCancelCheckOut));
}

Result<Json> GuardedRepository::CreateType(const Json& definition) {
  return repo_->CreateType(definition, checker_.ForWrite(Action::kManageTypes));
}

Result<Json> GuardedRepository::UpdateType(const Json& definition) {
  return repo_->UpdateType(definition, checker_.ForWrite(Action::kManageTypes));
}

Status GuardedRepository::DeleteType(const std::string& type_id) {
  return repo_->DeleteType(type_id, checker_.ForWrite(Action::kManageTypes));
}

}  // namespace folio::acl
