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

// One row per Operation, in declaration order (checked below). Spellings: the
// canonical name first (the CMIS selector or action, or the service's own name where
// CMIS has none), then the CMIS method-style names and other synonyms.
constexpr OperationRow kRows[] = {
    // Server level.
    {Operation::kGetDomains, kRead, kAtServer, GetDomains, {"getDomains", "domains"}},
    {Operation::kCreateDomain, kWrite, kAtServer, CreateDomain, {"createDomain"}},
    {Operation::kDeleteDomain, kWrite, kAtServer, DeleteDomain, {"deleteDomain"}},
    // Domain level.
    {Operation::kGetRepositories, kRead, kAtDomain, GetRepositories, {"getRepositories", "repositories"}},
    {Operation::kCreateRepository, kWrite, kAtDomain, CreateRepository, {"createRepository"}},
    {Operation::kDeleteRepository, kWrite, kAtDomain, DeleteRepository, {"deleteRepository"}},
    {Operation::kGetUsers, kRead, kAtDomain, kNotServed, {"getUsers", "users"}},
    {Operation::kCreateUser, kWrite, kAtDomain, kNotServed, {"createUser"}},
    {Operation::kUpdateUser, kWrite, kAtDomain, kNotServed, {"updateUser"}},
    {Operation::kDeleteUser, kWrite, kAtDomain, kNotServed, {"deleteUser"}},
    {Operation::kGetGroups, kRead, kAtDomain, kNotServed, {"getGroups", "groups"}},
    {Operation::kCreateGroup, kWrite, kAtDomain, kNotServed, {"createGroup"}},
    {Operation::kUpdateGroup, kWrite, kAtDomain, kNotServed, {"updateGroup"}},
    {Operation::kDeleteGroup, kWrite, kAtDomain, kNotServed, {"deleteGroup"}},
    // Repository level: reads.
    {Operation::kRepositoryInfo, kRead, kAtRepository, RepositoryInfo, {"repositoryInfo", "getRepositoryInfo"}},
    {Operation::kTypeChildren, kRead, kAtRepository, TypeChildren, {"typeChildren", "getTypeChildren"}},
    {Operation::kTypeDescendants, kRead, kAtRepository, TypeDescendants, {"typeDescendants", "getTypeDescendants"}},
    {Operation::kTypeDefinition, kRead, kAtRepository, TypeDefinition, {"typeDefinition", "getTypeDefinition"}},
    // A GET selector and a POST action alike; never a write.
    {Operation::kQuery, kRead, kAtRepository, kNotServed, {"query"}},
    {Operation::kCheckedOut, kRead, kAtRepository, CheckedOut, {"checkedout", "getCheckedOutDocs"}},
    {Operation::kContentChanges, kRead, kAtRepository, kNotServed, {"contentChanges", "getContentChanges"}},
    {Operation::kLastResult, kRead, kAtRepository, kNotServed, {"lastResult", "getLastResult"}},
    // Repository level: type management.
    {Operation::kCreateType, kWrite, kAtRepository, CreateType, {"createType"}},
    {Operation::kUpdateType, kWrite, kAtRepository, kNotServed, {"updateType"}},
    {Operation::kDeleteType, kWrite, kAtRepository, DeleteType, {"deleteType"}},
    // Object reads.
    {Operation::kObject, kRead, kAtRepository, GetObject, {"object", "getObject", "getObjectByPath"}},
    {Operation::kProperties, kRead, kAtRepository, GetProperties, {"properties", "getProperties"}},
    {Operation::kAllowableActions, kRead, kAtRepository, GetAllowableActions,
     {"allowableActions", "getAllowableActions"}},
    {Operation::kRenditions, kRead, kAtRepository, GetNoneOfThem, {"renditions", "getRenditions"}},
    {Operation::kContent, kRead, kAtRepository, GetContent, {"content", "getContentStream", "getContent"}},
    {Operation::kChildren, kRead, kAtRepository, GetChildren, {"children", "getChildren"}},
    {Operation::kDescendants, kRead, kAtRepository, kNotServed, {"descendants", "getDescendants"}},
    // "folder" is OpenCMIS's legacy alias of folderTree.
    {Operation::kFolderTree, kRead, kAtRepository, kNotServed, {"folderTree", "getFolderTree", "folder"}},
    {Operation::kParent, kRead, kAtRepository, GetParent, {"parent", "getFolderParent"}},
    {Operation::kParents, kRead, kAtRepository, GetParents, {"parents", "getObjectParents"}},
    {Operation::kVersions, kRead, kAtRepository, GetAllVersions, {"versions", "getAllVersions"}},
    {Operation::kRelationships, kRead, kAtRepository, GetObjectRelationships,
     {"relationships", "getObjectRelationships"}},
    {Operation::kPolicies, kRead, kAtRepository, GetNoneOfThem, {"policies", "getAppliedPolicies"}},
    {Operation::kAcl, kRead, kAtRepository, GetAcl, {"acl", "getACL"}},
    // Object writes. Each create* defaults its base type; createObject takes the type
    // from the properties (or document when content is sent).
    {Operation::kCreateObject, kWrite, kAtRepository, CreateObject, {"createObject"}},
    {Operation::kCreateDocument, kWrite, kAtRepository, CreateObject, {"createDocument"}},
    {Operation::kCreateDocumentFromSource, kWrite, kAtRepository, CreateDocumentFromSource,
     {"createDocumentFromSource"}},
    {Operation::kCreateFolder, kWrite, kAtRepository, CreateObject, {"createFolder"}},
    {Operation::kCreateItem, kWrite, kAtRepository, CreateObject, {"createItem"}},
    {Operation::kCreatePolicy, kWrite, kAtRepository, kNotServed, {"createPolicy"}},
    {Operation::kCreateRelationship, kWrite, kAtRepository, CreateObject, {"createRelationship"}},
    {Operation::kUpdate, kWrite, kAtRepository, UpdateProperties, {"update", "updateProperties"}},
    {Operation::kBulkUpdate, kWrite, kAtRepository, BulkUpdate, {"bulkUpdate", "bulkUpdateProperties"}},
    {Operation::kDelete, kWrite, kAtRepository, DeleteObject, {"delete", "deleteObject"}},
    {Operation::kDeleteTree, kWrite, kAtRepository, DeleteTree, {"deleteTree"}},
    {Operation::kSetContent, kWrite, kAtRepository, SetContent, {"setContent", "setContentStream"}},
    {Operation::kAppendContent, kWrite, kAtRepository, AppendContent, {"appendContent", "appendContentStream"}},
    {Operation::kDeleteContent, kWrite, kAtRepository, DeleteContent, {"deleteContent", "deleteContentStream"}},
    {Operation::kMove, kWrite, kAtRepository, Move, {"move", "moveObject"}},
    {Operation::kAddObjectToFolder, kWrite, kAtRepository, kNotServed, {"addObjectToFolder"}},
    {Operation::kRemoveObjectFromFolder, kWrite, kAtRepository, kNotServed, {"removeObjectFromFolder"}},
    // Versioning.
    {Operation::kCheckOut, kWrite, kAtRepository, CheckOut, {"checkOut"}},
    {Operation::kCheckIn, kWrite, kAtRepository, CheckIn, {"checkIn"}},
    {Operation::kCancelCheckOut, kWrite, kAtRepository, CancelCheckOut, {"cancelCheckOut"}},
    // Policies and access control.
    {Operation::kApplyPolicy, kWrite, kAtRepository, kNotServed, {"applyPolicy"}},
    {Operation::kRemovePolicy, kWrite, kAtRepository, kNotServed, {"removePolicy"}},
    {Operation::kApplyAcl, kWrite, kAtRepository, kNotServed, {"applyACL"}},
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
