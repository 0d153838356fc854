// The table of operations, and the name functions of api/operation.h that read it;
// see operation_table.h. Levels and spellings: docs/API.md §3.1, §3.2 and §7.
#include "api/ops/operation_table.h"

#include <string>

#include "api/ascii.h"
#include "api/url.h"

namespace folio::api::ops {
namespace {

constexpr bool kRead = false;
constexpr bool kWrite = true;
constexpr LevelSet kAtServer = LevelBit(Level::kServer);
constexpr LevelSet kAtDomain = LevelBit(Level::kDomain);
// The repository URL and every object URL below it (repositoryUrl == rootFolderUrl).
constexpr LevelSet kAtRepository = LevelBit(Level::kRepository);
constexpr Handler kNotServed = nullptr;
// What the caller needs on the object the operation addresses (docs/API.md §11.3),
// checked as soon as the handler looks it up (Context::Target), before anything
// changes; a create needs it on the parent folder. Every row says it.
using A = acl::Action;
constexpr std::optional<acl::Action> Needs(acl::Action action) { return action; }
constexpr std::optional<acl::Action> kNeedsRead = A::kRead;
// The handler checks every object it touches itself (a relationship's two ends, each
// object of a bulkUpdate; type management: the root folder, whatever the URL).
constexpr std::optional<acl::Action> kChecksItsOwn = std::nullopt;
// Above the repository: no object (the domain's administrators decide).
constexpr std::optional<acl::Action> kNoObject = std::nullopt;
// Not served: answered notSupported before anything is looked up. Served, it must say.
constexpr std::optional<acl::Action> kNeverRuns = std::nullopt;

// One row per Operation, in declaration order (checked below). Spellings: the
// canonical name first (the CMIS selector or action, or the service's own name where
// CMIS has none), then the CMIS method-style names and other synonyms.
constexpr OperationRow kRows[] = {
    // Server level.
    {Operation::kGetDomains, kRead, kAtServer, GetDomains, kNoObject, {"getDomains", "domains"}},
    {Operation::kCreateDomain, kWrite, kAtServer, CreateDomain, kNoObject, {"createDomain"}},
    {Operation::kDeleteDomain, kWrite, kAtServer, DeleteDomain, kNoObject, {"deleteDomain"}},
    // Domain level.
    {Operation::kGetRepositories, kRead, kAtDomain, GetRepositories, kNoObject, {"getRepositories", "repositories"}},
    {Operation::kCreateRepository, kWrite, kAtDomain, CreateRepository, kNoObject, {"createRepository"}},
    {Operation::kDeleteRepository, kWrite, kAtDomain, DeleteRepository, kNoObject, {"deleteRepository"}},
    {Operation::kGetUsers, kRead, kAtDomain, GetUsers, kNoObject, {"getUsers", "users"}},
    {Operation::kCreateUser, kWrite, kAtDomain, CreateUser, kNoObject, {"createUser"}},
    {Operation::kUpdateUser, kWrite, kAtDomain, UpdateUser, kNoObject, {"updateUser"}},
    {Operation::kDeleteUser, kWrite, kAtDomain, DeleteUser, kNoObject, {"deleteUser"}},
    {Operation::kGetGroups, kRead, kAtDomain, GetGroups, kNoObject, {"getGroups", "groups"}},
    {Operation::kCreateGroup, kWrite, kAtDomain, CreateGroup, kNoObject, {"createGroup"}},
    {Operation::kUpdateGroup, kWrite, kAtDomain, UpdateGroup, kNoObject, {"updateGroup"}},
    {Operation::kDeleteGroup, kWrite, kAtDomain, DeleteGroup, kNoObject, {"deleteGroup"}},
    // Repository level: reads.
    {Operation::kRepositoryInfo, kRead, kAtRepository, RepositoryInfo, kNeedsRead,
     {"repositoryInfo", "getRepositoryInfo"}},
    {Operation::kTypeChildren, kRead, kAtRepository, TypeChildren, kNeedsRead, {"typeChildren", "getTypeChildren"}},
    {Operation::kTypeDescendants, kRead, kAtRepository, TypeDescendants, kNeedsRead,
     {"typeDescendants", "getTypeDescendants"}},
    {Operation::kTypeDefinition, kRead, kAtRepository, TypeDefinition, kNeedsRead,
     {"typeDefinition", "getTypeDefinition"}},
    // A GET selector and a POST action alike; never a write.
    {Operation::kQuery, kRead, kAtRepository, Query, kNeedsRead, {"query"}},
    {Operation::kCheckedOut, kRead, kAtRepository, CheckedOut, kNeedsRead, {"checkedout", "getCheckedOutDocs"}},
    {Operation::kContentChanges, kRead, kAtRepository, ContentChanges, kNeedsRead,
     {"contentChanges", "getContentChanges"}},
    {Operation::kLastResult, kRead, kAtRepository, kNotServed, kNeverRuns, {"lastResult", "getLastResult"}},
    // Repository level: type management.
    {Operation::kCreateType, kWrite, kAtRepository, CreateType, kChecksItsOwn, {"createType"}},
    {Operation::kUpdateType, kWrite, kAtRepository, UpdateType, kChecksItsOwn, {"updateType"}},
    {Operation::kDeleteType, kWrite, kAtRepository, DeleteType, kChecksItsOwn, {"deleteType"}},
    // Object reads.
    {Operation::kObject, kRead, kAtRepository, GetObject, kNeedsRead, {"object", "getObject", "getObjectByPath"}},
    {Operation::kProperties, kRead, kAtRepository, GetProperties, kNeedsRead, {"properties", "getProperties"}},
    {Operation::kAllowableActions, kRead, kAtRepository, GetAllowableActions, kNeedsRead,
     {"allowableActions", "getAllowableActions"}},
    {Operation::kRenditions, kRead, kAtRepository, GetNoneOfThem, kNeedsRead, {"renditions", "getRenditions"}},
    {Operation::kContent, kRead, kAtRepository, GetContent, kNeedsRead, {"content", "getContentStream", "getContent"}},
    {Operation::kChildren, kRead, kAtRepository, GetChildren, kNeedsRead, {"children", "getChildren"}},
    {Operation::kDescendants, kRead, kAtRepository, GetDescendants, kNeedsRead, {"descendants", "getDescendants"}},
    // "folder" is OpenCMIS's legacy alias of folderTree.
    {Operation::kFolderTree, kRead, kAtRepository, GetFolderTree, kNeedsRead,
     {"folderTree", "getFolderTree", "folder"}},
    {Operation::kParent, kRead, kAtRepository, GetParent, kNeedsRead, {"parent", "getFolderParent"}},
    {Operation::kParents, kRead, kAtRepository, GetParents, kNeedsRead, {"parents", "getObjectParents"}},
    {Operation::kVersions, kRead, kAtRepository, GetAllVersions, kNeedsRead, {"versions", "getAllVersions"}},
    {Operation::kRelationships, kRead, kAtRepository, GetObjectRelationships, kNeedsRead,
     {"relationships", "getObjectRelationships"}},
    {Operation::kPolicies, kRead, kAtRepository, GetNoneOfThem, kNeedsRead, {"policies", "getAppliedPolicies"}},
    {Operation::kAcl, kRead, kAtRepository, GetAcl, kNeedsRead, {"acl", "getACL"}},
    // Object writes. Each create* defaults its base type; createObject takes the type
    // from the properties (or document when content is sent).
    {Operation::kCreateObject, kWrite, kAtRepository, CreateObject, Needs(A::kCreateChild), {"createObject"}},
    {Operation::kCreateDocument, kWrite, kAtRepository, CreateObject, Needs(A::kCreateChild), {"createDocument"}},
    {Operation::kCreateDocumentFromSource, kWrite, kAtRepository, CreateDocumentFromSource, Needs(A::kCreateChild),
     {"createDocumentFromSource"}},
    {Operation::kCreateFolder, kWrite, kAtRepository, CreateObject, Needs(A::kCreateChild), {"createFolder"}},
    {Operation::kCreateItem, kWrite, kAtRepository, CreateObject, Needs(A::kCreateChild), {"createItem"}},
    {Operation::kCreatePolicy, kWrite, kAtRepository, kNotServed, kNeverRuns, {"createPolicy"}},
    {Operation::kCreateRelationship, kWrite, kAtRepository, CreateObject, kChecksItsOwn, {"createRelationship"}},
    {Operation::kUpdate, kWrite, kAtRepository, UpdateProperties, Needs(A::kUpdateProperties),
     {"update", "updateProperties"}},
    {Operation::kBulkUpdate, kWrite, kAtRepository, BulkUpdate, kChecksItsOwn, {"bulkUpdate", "bulkUpdateProperties"}},
    {Operation::kDelete, kWrite, kAtRepository, DeleteObject, Needs(A::kDelete), {"delete", "deleteObject"}},
    {Operation::kDeleteTree, kWrite, kAtRepository, DeleteTree, Needs(A::kDeleteTree), {"deleteTree"}},
    {Operation::kSetContent, kWrite, kAtRepository, SetContent, Needs(A::kSetContent),
     {"setContent", "setContentStream"}},
    {Operation::kAppendContent, kWrite, kAtRepository, AppendContent, Needs(A::kSetContent),
     {"appendContent", "appendContentStream"}},
    {Operation::kDeleteContent, kWrite, kAtRepository, DeleteContent, Needs(A::kDeleteContent),
     {"deleteContent", "deleteContentStream"}},
    {Operation::kMove, kWrite, kAtRepository, Move, Needs(A::kMove), {"move", "moveObject"}},
    {Operation::kAddObjectToFolder, kWrite, kAtRepository, kNotServed, kNeverRuns, {"addObjectToFolder"}},
    {Operation::kRemoveObjectFromFolder, kWrite, kAtRepository, kNotServed, kNeverRuns, {"removeObjectFromFolder"}},
    // Versioning.
    {Operation::kCheckOut, kWrite, kAtRepository, CheckOut, Needs(A::kCheckOut), {"checkOut"}},
    {Operation::kCheckIn, kWrite, kAtRepository, CheckIn, Needs(A::kCheckIn), {"checkIn"}},
    {Operation::kCancelCheckOut, kWrite, kAtRepository, CancelCheckOut, Needs(A::kCancelCheckOut), {"cancelCheckOut"}},
    // Policies and access control.
    {Operation::kApplyPolicy, kWrite, kAtRepository, kNotServed, kNeverRuns, {"applyPolicy"}},
    {Operation::kRemovePolicy, kWrite, kAtRepository, kNotServed, kNeverRuns, {"removePolicy"}},
    {Operation::kApplyAcl, kWrite, kAtRepository, ApplyAcl, Needs(A::kApplyAcl), {"applyACL"}},
};

constexpr bool RowsMatchEnum() {
  for (size_t i = 0; i < std::size(kRows); ++i) {
    if (static_cast<size_t>(kRows[i].op) != i) return false;
  }
  return static_cast<size_t>(Operation::kApplyAcl) + 1 == std::size(kRows);
}
static_assert(RowsMatchEnum(), "kRows must hold one row per Operation, in enum order");

constexpr std::array<Operation, std::size(kRows)> MakeAllOperations() {
  std::array<Operation, std::size(kRows)> all{};
  for (size_t i = 0; i < all.size(); ++i) all[i] = kRows[i].op;
  return all;
}
constexpr auto kAllOperations = MakeAllOperations();

}  // namespace

std::span<const std::string_view> OperationRow::Spellings() const {
  size_t count = 0;
  while (count < spellings.size() && !spellings[count].empty()) ++count;
  return {spellings.data(), count};
}

std::span<const OperationRow> OperationTable() { return kRows; }

const OperationRow& OperationRowFor(Operation op) { return kRows[static_cast<size_t>(op)]; }

}  // namespace folio::api::ops

namespace folio::api {

std::span<const Operation> AllOperations() { return ops::kAllOperations; }

Result<Operation> ParseOperation(std::string_view name) {
  if (!name.empty()) {
    for (const ops::OperationRow& row : ops::kRows) {
      for (const std::string_view spelling : row.Spellings()) {
        if (EqualsIgnoreCase(spelling, name)) return row.op;
      }
    }
  }
  return NotSupported("unknown operation " + QuoteForMessage(name));
}

std::string_view OperationName(Operation op) { return ops::OperationRowFor(op).spellings[0]; }

std::span<const std::string_view> OperationSpellings(Operation op) { return ops::OperationRowFor(op).Spellings(); }

bool IsWrite(Operation op) { return ops::OperationRowFor(op).write; }

}  // namespace folio::api
