// The operations a request can name (docs/API.md §3.2, §7), their canonical spellings,
// the synonyms accepted for each, and which ones write. The functions below read the
// one operation table, ops/operation_table.{h,cc}, which also says at which URL level
// each operation runs and which handler serves it (defined there, beside the handlers).
#pragma once

#include <span>
#include <string_view>

#include "folio/status.h"

namespace folio::api {

enum class Operation {
  // Server level.
  kGetDomains,
  kCreateDomain,
  kDeleteDomain,
  // Domain level.
  kGetRepositories,
  kCreateRepository,
  kDeleteRepository,
  kGetUsers,
  kCreateUser,
  kUpdateUser,
  kDeleteUser,
  kGetGroups,
  kCreateGroup,
  kUpdateGroup,
  kDeleteGroup,
  // Repository level: reads.
  kRepositoryInfo,
  kTypeChildren,
  kTypeDescendants,
  kTypeDefinition,
  kQuery,  // GET selector and POST action alike; never a write
  kCheckedOut,
  kContentChanges,
  kLastResult,
  // Repository level: type management.
  kCreateType,
  kUpdateType,
  kDeleteType,
  // Object reads.
  kObject,
  kProperties,
  kAllowableActions,
  kRenditions,
  kContent,
  kChildren,
  kDescendants,
  kFolderTree,
  kParent,
  kParents,
  kVersions,
  kRelationships,
  kPolicies,
  kAcl,
  // Object writes. The create* operations are distinct so that each can default its
  // base type; createObject is the service's generic one (type from the properties).
  kCreateObject,
  kCreateDocument,
  kCreateDocumentFromSource,
  kCreateFolder,
  kCreateItem,
  kCreatePolicy,
  kCreateRelationship,
  kUpdate,
  kBulkUpdate,
  kDelete,
  kDeleteTree,
  kSetContent,
  kAppendContent,
  kDeleteContent,
  kMove,
  kAddObjectToFolder,
  kRemoveObjectFromFolder,
  kCheckOut,
  kCheckIn,
  kCancelCheckOut,
  kApplyPolicy,
  kRemovePolicy,
  kApplyAcl,
};

// Every Operation, in declaration order.
std::span<const Operation> AllOperations();

// The operation that `name` spells, compared case-insensitively (ASCII) against the
// canonical name and its synonyms: the service's own names, the CMIS selector/action
// names and the CMIS method-style names ("object", "getObject"; "versions", "getAllVersions";
// "checkedout", "getCheckedOutDocs"; "folder" is OpenCMIS's alias of "folderTree").
// Errors: kNotSupported "unknown operation '<name>'" for anything else, "" included.
Result<Operation> ParseOperation(std::string_view name);

// The canonical spelling: the CMIS selector or action name ("object", "checkedout",
// "update", "applyACL"), or the service's own name where CMIS has none
// ("createObject", "getDomains", "createUser").
std::string_view OperationName(Operation op);

// Every spelling ParseOperation accepts for `op`, the canonical one first.
std::span<const std::string_view> OperationSpellings(Operation op);

// True when `op` may change stored data (refused by `serve --read-only`). Reads,
// query (also when POSTed) and lastResult are not writes.
bool IsWrite(Operation op);

}  // namespace folio::api
