// The CMIS names the request layer reads and writes: built-in property ids
// (docs/API.md §6.1), built-in type ids, and the parameter and JSON field
// names of the binding. Every other file in src/api spells these names through here.
#pragma once

#include <array>
#include <string_view>

#include "folio/cmis_ids.h"

namespace folio::api {

// The prefix of every built-in id; variant A leaves it out in responses (docs/API.md §5).
inline constexpr std::string_view kCmisPrefix = cmis::kPrefix;

// --- Built-in property ids, §6.1: on every base type except cmis:secondary.
inline constexpr std::string_view kPropName = cmis::kName;
inline constexpr std::string_view kPropDescription = cmis::kDescription;
inline constexpr std::string_view kPropObjectId = cmis::kObjectId;
inline constexpr std::string_view kPropBaseTypeId = cmis::kBaseTypeId;
inline constexpr std::string_view kPropObjectTypeId = cmis::kObjectTypeId;
inline constexpr std::string_view kPropSecondaryObjectTypeIds = cmis::kSecondaryObjectTypeIds;
inline constexpr std::string_view kPropCreatedBy = cmis::kCreatedBy;
inline constexpr std::string_view kPropCreationDate = cmis::kCreationDate;
inline constexpr std::string_view kPropLastModifiedBy = cmis::kLastModifiedBy;
inline constexpr std::string_view kPropLastModificationDate = cmis::kLastModificationDate;
inline constexpr std::string_view kPropChangeToken = cmis::kChangeToken;

// --- §6.2: cmis:document adds these.
inline constexpr std::string_view kPropIsImmutable = cmis::kIsImmutable;
inline constexpr std::string_view kPropIsLatestVersion = cmis::kIsLatestVersion;
inline constexpr std::string_view kPropIsMajorVersion = cmis::kIsMajorVersion;
inline constexpr std::string_view kPropIsLatestMajorVersion = cmis::kIsLatestMajorVersion;
inline constexpr std::string_view kPropIsPrivateWorkingCopy = cmis::kIsPrivateWorkingCopy;
inline constexpr std::string_view kPropVersionLabel = cmis::kVersionLabel;
inline constexpr std::string_view kPropVersionSeriesId = cmis::kVersionSeriesId;
inline constexpr std::string_view kPropIsVersionSeriesCheckedOut = cmis::kIsVersionSeriesCheckedOut;
inline constexpr std::string_view kPropVersionSeriesCheckedOutBy = cmis::kVersionSeriesCheckedOutBy;
inline constexpr std::string_view kPropVersionSeriesCheckedOutId = cmis::kVersionSeriesCheckedOutId;
// The service's (docs/API.md §6.1) versioning property; not in CMIS 1.1, kept under the same prefix.
inline constexpr std::string_view kPropVersionSeriesCheckedOutDate = cmis::kVersionSeriesCheckedOutDate;
inline constexpr std::string_view kPropCheckinComment = cmis::kCheckinComment;
inline constexpr std::string_view kPropContentStreamLength = cmis::kContentStreamLength;
inline constexpr std::string_view kPropContentStreamMimeType = cmis::kContentStreamMimeType;
inline constexpr std::string_view kPropContentStreamFileName = cmis::kContentStreamFileName;
inline constexpr std::string_view kPropContentStreamId = cmis::kContentStreamId;
inline constexpr std::string_view kPropContentStreamHash = cmis::kContentStreamHash;
inline constexpr std::string_view kPropLatestAccessibleStateId = cmis::kLatestAccessibleStateId;

// --- §6.3: folder, relationship and policy properties.
inline constexpr std::string_view kPropParentId = cmis::kParentId;
inline constexpr std::string_view kPropPath = cmis::kPath;
inline constexpr std::string_view kPropAllowedChildObjectTypeIds = cmis::kAllowedChildObjectTypeIds;
inline constexpr std::string_view kPropSourceId = cmis::kSourceId;
inline constexpr std::string_view kPropTargetId = cmis::kTargetId;
inline constexpr std::string_view kPropPolicyText = cmis::kPolicyText;

inline constexpr std::array kBuiltinPropertyIds = {
    kPropName,
    kPropDescription,
    kPropObjectId,
    kPropBaseTypeId,
    kPropObjectTypeId,
    kPropSecondaryObjectTypeIds,
    kPropCreatedBy,
    kPropCreationDate,
    kPropLastModifiedBy,
    kPropLastModificationDate,
    kPropChangeToken,
    kPropIsImmutable,
    kPropIsLatestVersion,
    kPropIsMajorVersion,
    kPropIsLatestMajorVersion,
    kPropIsPrivateWorkingCopy,
    kPropVersionLabel,
    kPropVersionSeriesId,
    kPropIsVersionSeriesCheckedOut,
    kPropVersionSeriesCheckedOutBy,
    kPropVersionSeriesCheckedOutId,
    kPropVersionSeriesCheckedOutDate,
    kPropCheckinComment,
    kPropContentStreamLength,
    kPropContentStreamMimeType,
    kPropContentStreamFileName,
    kPropContentStreamId,
    kPropContentStreamHash,
    kPropLatestAccessibleStateId,
    kPropParentId,
    kPropPath,
    kPropAllowedChildObjectTypeIds,
    kPropSourceId,
    kPropTargetId,
    kPropPolicyText,
};

// --- Built-in (base) type ids.
inline constexpr std::string_view kTypeDocument = cmis::kDocument;
inline constexpr std::string_view kTypeFolder = cmis::kFolder;
inline constexpr std::string_view kTypeItem = cmis::kItem;
inline constexpr std::string_view kTypeRelationship = cmis::kRelationship;
inline constexpr std::string_view kTypePolicy = cmis::kPolicy;
inline constexpr std::string_view kTypeSecondary = cmis::kSecondary;

inline constexpr std::array kBuiltinTypeIds = {
    kTypeDocument, kTypeFolder, kTypeItem, kTypeRelationship, kTypePolicy, kTypeSecondary,
};

// --- Request parameter names (§3). Matched case-insensitively by Params.
inline constexpr std::string_view kParamOperation = "operation";  // the service's own name
inline constexpr std::string_view kParamCmisSelector = "cmisselector";
inline constexpr std::string_view kParamCmisAction = "cmisaction";
inline constexpr std::string_view kParamProperties = "properties";
inline constexpr std::string_view kParamPropertyId = "propertyId";
inline constexpr std::string_view kParamPropertyValue = "propertyValue";
inline constexpr std::string_view kParamAddAces = "addACEs";
inline constexpr std::string_view kParamRemoveAces = "removeACEs";
inline constexpr std::string_view kParamAddAcePrincipal = "addACEPrincipal";
inline constexpr std::string_view kParamAddAcePermission = "addACEPermission";
inline constexpr std::string_view kParamRemoveAcePrincipal = "removeACEPrincipal";
inline constexpr std::string_view kParamRemoveAcePermission = "removeACEPermission";
inline constexpr std::string_view kParamSuppressResponseCodes = "suppressResponseCodes";

// --- JSON field names.
inline constexpr std::string_view kJsonException = "exception";
inline constexpr std::string_view kJsonMessage = "message";
inline constexpr std::string_view kJsonPrincipal = "principal";
inline constexpr std::string_view kJsonPrincipalId = "principalId";
inline constexpr std::string_view kJsonPermissions = "permissions";

}  // namespace folio::api
