// The CMIS names the request layer reads and writes: built-in property ids
// (cmis-browser-binding.md §6), built-in type ids, and the parameter and JSON field
// names of the binding. Every other file in src/api spells these names through here.
#pragma once

#include <array>
#include <string_view>

namespace folio::api {

// The prefix of every built-in id; variant A leaves it out in responses (CONTRACT §4).
inline constexpr std::string_view kCmisPrefix = "cmis:";

// --- Built-in property ids, §6.1: on every base type except cmis:secondary.
inline constexpr std::string_view kPropName = "cmis:name";
inline constexpr std::string_view kPropDescription = "cmis:description";
inline constexpr std::string_view kPropObjectId = "cmis:objectId";
inline constexpr std::string_view kPropBaseTypeId = "cmis:baseTypeId";
inline constexpr std::string_view kPropObjectTypeId = "cmis:objectTypeId";
inline constexpr std::string_view kPropSecondaryObjectTypeIds = "cmis:secondaryObjectTypeIds";
inline constexpr std::string_view kPropCreatedBy = "cmis:createdBy";
inline constexpr std::string_view kPropCreationDate = "cmis:creationDate";
inline constexpr std::string_view kPropLastModifiedBy = "cmis:lastModifiedBy";
inline constexpr std::string_view kPropLastModificationDate = "cmis:lastModificationDate";
inline constexpr std::string_view kPropChangeToken = "cmis:changeToken";

// --- §6.2: cmis:document adds these.
inline constexpr std::string_view kPropIsImmutable = "cmis:isImmutable";
inline constexpr std::string_view kPropIsLatestVersion = "cmis:isLatestVersion";
inline constexpr std::string_view kPropIsMajorVersion = "cmis:isMajorVersion";
inline constexpr std::string_view kPropIsLatestMajorVersion = "cmis:isLatestMajorVersion";
inline constexpr std::string_view kPropIsPrivateWorkingCopy = "cmis:isPrivateWorkingCopy";
inline constexpr std::string_view kPropVersionLabel = "cmis:versionLabel";
inline constexpr std::string_view kPropVersionSeriesId = "cmis:versionSeriesId";
inline constexpr std::string_view kPropIsVersionSeriesCheckedOut = "cmis:isVersionSeriesCheckedOut";
inline constexpr std::string_view kPropVersionSeriesCheckedOutBy = "cmis:versionSeriesCheckedOutBy";
inline constexpr std::string_view kPropVersionSeriesCheckedOutId = "cmis:versionSeriesCheckedOutId";
// The seed's (§2) versioning property; not in CMIS 1.1, kept under the same prefix.
inline constexpr std::string_view kPropVersionSeriesCheckedOutDate = "cmis:versionSeriesCheckedOutDate";
inline constexpr std::string_view kPropCheckinComment = "cmis:checkinComment";
inline constexpr std::string_view kPropContentStreamLength = "cmis:contentStreamLength";
inline constexpr std::string_view kPropContentStreamMimeType = "cmis:contentStreamMimeType";
inline constexpr std::string_view kPropContentStreamFileName = "cmis:contentStreamFileName";
inline constexpr std::string_view kPropContentStreamId = "cmis:contentStreamId";
inline constexpr std::string_view kPropContentStreamHash = "cmis:contentStreamHash";
inline constexpr std::string_view kPropLatestAccessibleStateId = "cmis:latestAccessibleStateId";

// --- §6.3: folder, relationship and policy properties.
inline constexpr std::string_view kPropParentId = "cmis:parentId";
inline constexpr std::string_view kPropPath = "cmis:path";
inline constexpr std::string_view kPropAllowedChildObjectTypeIds = "cmis:allowedChildObjectTypeIds";
inline constexpr std::string_view kPropSourceId = "cmis:sourceId";
inline constexpr std::string_view kPropTargetId = "cmis:targetId";
inline constexpr std::string_view kPropPolicyText = "cmis:policyText";

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
inline constexpr std::string_view kTypeDocument = "cmis:document";
inline constexpr std::string_view kTypeFolder = "cmis:folder";
inline constexpr std::string_view kTypeItem = "cmis:item";
inline constexpr std::string_view kTypeRelationship = "cmis:relationship";
inline constexpr std::string_view kTypePolicy = "cmis:policy";
inline constexpr std::string_view kTypeSecondary = "cmis:secondary";

inline constexpr std::array kBuiltinTypeIds = {
    kTypeDocument, kTypeFolder, kTypeItem, kTypeRelationship, kTypePolicy, kTypeSecondary,
};

// --- Request parameter names (§3). Matched case-insensitively by Params.
inline constexpr std::string_view kParamOperation = "operation";  // the seed's name
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
