// The table of operations: canonical name, synonyms, write flag.
#include "api/operation.h"

#include <array>
#include <string>

#include "api/ascii.h"
#include "api/url.h"

namespace folio::api {
namespace {

constexpr size_t kMaxSpellings = 4;

struct OperationInfo {
  Operation op;
  bool write;
  // Canonical name first; unused slots are empty.
  std::array<std::string_view, kMaxSpellings> spellings;
};

// One row per Operation, in declaration order (checked by OperationInfoFor).
constexpr OperationInfo kOperations[] = {
    {Operation::kGetDomains, false, {"getDomains", "domains"}},
    {Operation::kCreateDomain, true, {"createDomain"}},
    {Operation::kDeleteDomain, true, {"deleteDomain"}},
    {Operation::kGetRepositories, false, {"getRepositories", "repositories"}},
    {Operation::kCreateRepository, true, {"createRepository"}},
    {Operation::kDeleteRepository, true, {"deleteRepository"}},
    {Operation::kGetUsers, false, {"getUsers", "users"}},
    {Operation::kCreateUser, true, {"createUser"}},
    {Operation::kUpdateUser, true, {"updateUser"}},
    {Operation::kDeleteUser, true, {"deleteUser"}},
    {Operation::kGetGroups, false, {"getGroups", "groups"}},
    {Operation::kCreateGroup, true, {"createGroup"}},
    {Operation::kUpdateGroup, true, {"updateGroup"}},
    {Operation::kDeleteGroup, true, {"deleteGroup"}},
    {Operation::kRepositoryInfo, false, {"repositoryInfo", "getRepositoryInfo"}},
    {Operation::kTypeChildren, false, {"typeChildren", "getTypeChildren"}},
    {Operation::kTypeDescendants, false, {"typeDescendants", "getTypeDescendants"}},
    {Operation::kTypeDefinition, false, {"typeDefinition", "getTypeDefinition"}},
    {Operation::kQuery, false, {"query"}},
    {Operation::kCheckedOut, false, {"checkedout", "getCheckedOutDocs"}},
    {Operation::kContentChanges, false, {"contentChanges", "getContentChanges"}},
    {Operation::kLastResult, false, {"lastResult", "getLastResult"}},
    {Operation::kCreateType, true, {"createType"}},
    {Operation::kUpdateType, true, {"updateType"}},
    {Operation::kDeleteType, true, {"deleteType"}},
    {Operation::kObject, false, {"object", "getObject", "getObjectByPath"}},
    {Operation::kProperties, false, {"properties", "getProperties"}},
    {Operation::kAllowableActions, false, {"allowableActions", "getAllowableActions"}},
    {Operation::kRenditions, false, {"renditions", "getRenditions"}},
    {Operation::kContent, false, {"content", "getContentStream", "getContent"}},
    {Operation::kChildren, false, {"children", "getChildren"}},
    {Operation::kDescendants, false, {"descendants", "getDescendants"}},
    {Operation::kFolderTree, false, {"folderTree", "getFolderTree", "folder"}},
    {Operation::kParent, false, {"parent", "getFolderParent"}},
    {Operation::kParents, false, {"parents", "getObjectParents"}},
    {Operation::kVersions, false, {"versions", "getAllVersions"}},
    {Operation::kRelationships, false, {"relationships", "getObjectRelationships"}},
    {Operation::kPolicies, false, {"policies", "getAppliedPolicies"}},
    {Operation::kAcl, false, {"acl", "getACL"}},
    {Operation::kCreateObject, true, {"createObject"}},
    {Operation::kCreateDocument, true, {"createDocument"}},
    {Operation::kCreateDocumentFromSource, true, {"createDocumentFromSource"}},
    {Operation::kCreateFolder, true, {"createFolder"}},
    {Operation::kCreateItem, true, {"createItem"}},
    {Operation::kCreatePolicy, true, {"createPolicy"}},
    {Operation::kCreateRelationship, true, {"createRelationship"}},
    {Operation::kUpdate, true, {"update", "updateProperties"}},
    {Operation::kBulkUpdate, true, {"bulkUpdate", "bulkUpdateProperties"}},
    {Operation::kDelete, true, {"delete", "deleteObject"}},
    {Operation::kDeleteTree, true, {"deleteTree"}},
    {Operation::kSetContent, true, {"setContent", "setContentStream"}},
    {Operation::kAppendContent, true, {"appendContent", "appendContentStream"}},
    {Operation::kDeleteContent, true, {"deleteContent", "deleteContentStream"}},
    {Operation::kMove, true, {"move", "moveObject"}},
    {Operation::kAddObjectToFolder, true, {"addObjectToFolder"}},
    {Operation::kRemoveObjectFromFolder, true, {"removeObjectFromFolder"}},
    {Operation::kCheckOut, true, {"checkOut"}},
    {Operation::kCheckIn, true, {"checkIn"}},
    {Operation::kCancelCheckOut, true, {"cancelCheckOut"}},
    {Operation::kApplyPolicy, true, {"applyPolicy"}},
    {Operation::kRemovePolicy, true, {"removePolicy"}},
    {Operation::kApplyAcl, true, {"applyACL"}},
};

constexpr bool TableMatchesEnum() {
  for (size_t i = 0; i < std::size(kOperations); ++i) {
    if (static_cast<size_t>(kOperations[i].op) != i) return false;
  }
  return static_cast<size_t>(Operation::kApplyAcl) + 1 == std::size(kOperations);
}
static_assert(TableMatchesEnum(), "kOperations must list every Operation in enum order");

constexpr std::array<Operation, std::size(kOperations)> MakeAllOperations() {
  std::array<Operation, std::size(kOperations)> all{};
  for (size_t i = 0; i < all.size(); ++i) all[i] = kOperations[i].op;
  return all;
}
constexpr auto kAllOperations = MakeAllOperations();

const OperationInfo& InfoFor(Operation op) { return kOperations[static_cast<size_t>(op)]; }

}  // namespace

std::span<const Operation> AllOperations() { return kAllOperations; }

Result<Operation> ParseOperation(std::string_view name) {
  if (!name.empty()) {
    for (const OperationInfo& info : kOperations) {
      for (const std::string_view spelling : info.spellings) {
        if (!spelling.empty() && EqualsIgnoreCase(spelling, name)) return info.op;
      }
    }
  }
  return NotSupported("unknown operation " + QuoteForMessage(name));
}

std::string_view OperationName(Operation op) { return InfoFor(op).spellings[0]; }

std::span<const std::string_view> OperationSpellings(Operation op) {
  const auto& spellings = InfoFor(op).spellings;
  size_t count = 0;
  while (count < spellings.size() && !spellings[count].empty()) ++count;
  return {spellings.data(), count};
}

bool IsWrite(Operation op) { return InfoFor(op).write; }

}  // namespace folio::api
