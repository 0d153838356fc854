// The built-in CMIS property and type ids (docs/API.md, objects and types): the one
// place their spelling lives. The engine keeps every property under these canonical
// ids; variant A's unprefixed spelling exists only at the HTTP edge.
#pragma once

#include <string_view>

namespace folio::cmis {

// --- On every base type.
inline constexpr char kName[] = "cmis:name";
inline constexpr char kDescription[] = "cmis:description";
inline constexpr char kObjectId[] = "cmis:objectId";
inline constexpr char kBaseTypeId[] = "cmis:baseTypeId";
inline constexpr char kObjectTypeId[] = "cmis:objectTypeId";
inline constexpr char kSecondaryObjectTypeIds[] = "cmis:secondaryObjectTypeIds";
inline constexpr char kCreatedBy[] = "cmis:createdBy";
inline constexpr char kCreationDate[] = "cmis:creationDate";
inline constexpr char kLastModifiedBy[] = "cmis:lastModifiedBy";
inline constexpr char kLastModificationDate[] = "cmis:lastModificationDate";
inline constexpr char kChangeToken[] = "cmis:changeToken";

// --- Documents.
inline constexpr char kIsImmutable[] = "cmis:isImmutable";
inline constexpr char kIsLatestVersion[] = "cmis:isLatestVersion";
inline constexpr char kIsMajorVersion[] = "cmis:isMajorVersion";
inline constexpr char kIsLatestMajorVersion[] = "cmis:isLatestMajorVersion";
inline constexpr char kIsPrivateWorkingCopy[] = "cmis:isPrivateWorkingCopy";
inline constexpr char kVersionLabel[] = "cmis:versionLabel";
inline constexpr char kVersionSeriesId[] = "cmis:versionSeriesId";
inline constexpr char kIsVersionSeriesCheckedOut[] = "cmis:isVersionSeriesCheckedOut";
inline constexpr char kVersionSeriesCheckedOutBy[] = "cmis:versionSeriesCheckedOutBy";
inline constexpr char kVersionSeriesCheckedOutId[] = "cmis:versionSeriesCheckedOutId";
// The service's versioning property; not in CMIS 1.1, kept under the same prefix.
inline constexpr char kVersionSeriesCheckedOutDate[] = "cmis:versionSeriesCheckedOutDate";
inline constexpr char kCheckinComment[] = "cmis:checkinComment";
inline constexpr char kContentStreamLength[] = "cmis:contentStreamLength";
inline constexpr char kContentStreamMimeType[] = "cmis:contentStreamMimeType";
inline constexpr char kContentStreamFileName[] = "cmis:contentStreamFileName";
inline constexpr char kContentStreamId[] = "cmis:contentStreamId";
inline constexpr char kContentStreamHash[] = "cmis:contentStreamHash";
inline constexpr char kLatestAccessibleStateId[] = "cmis:latestAccessibleStateId";

// --- Folders, relationships, policies.
inline constexpr char kParentId[] = "cmis:parentId";
inline constexpr char kPath[] = "cmis:path";
inline constexpr char kAllowedChildObjectTypeIds[] = "cmis:allowedChildObjectTypeIds";
inline constexpr char kSourceId[] = "cmis:sourceId";
inline constexpr char kTargetId[] = "cmis:targetId";
inline constexpr char kPolicyText[] = "cmis:policyText";

// --- Built-in (base) type ids.
inline constexpr char kDocument[] = "cmis:document";
inline constexpr char kFolder[] = "cmis:folder";
inline constexpr char kItem[] = "cmis:item";
inline constexpr char kRelationship[] = "cmis:relationship";
inline constexpr char kPolicy[] = "cmis:policy";
inline constexpr char kSecondary[] = "cmis:secondary";

// The prefix of every built-in id (variant A leaves it out in responses).
inline constexpr char kPrefix[] = "cmis:";

// True for a built-in id (of a property or a type): one under the prefix, which a
// custom type may not use.
inline constexpr bool IsBuiltInId(std::string_view id) { return id.starts_with(kPrefix); }

}  // namespace folio::cmis
