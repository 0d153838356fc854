// The query index's tables (docs/STORAGE.md §12):
//
//   objects  one row per folder, item, relationship and document version (never a
//            private working copy: capabilityPWCSearchable is false). The built-in
//            single-valued properties are columns (p_name for cmis:name, ...), indexed
//            where queries filter or order by them; `folder` is the folder holding the
//            object (IN_FOLDER, IN_TREE); `current` is 1 for what a query without
//            searchAllVersions returns (every non-document, and latest versions).
//   props    (object, property, ordinal, value) for multi-valued and custom properties,
//            one row per value; an unset property has no row.
//   fts      FTS5 (unicode61, accents removed) over each document's name and text.
//   readers  (object, principal) for every principal an entry of the object's ACL
//            grants cmis:read or more: a query of a caller who is not a domain
//            administrator keeps the rows one of its principals may read, so that paging
//            and numItems count only what the caller sees.
//   meta     schema version, whether the index is complete, the change log token
//            applied (key "token:change-log").
#pragma once

#include <string>
#include <string_view>

#include "folio/cmis_ids.h"

namespace folio::query {

// Bumped whenever the tables change: an index of another version is rebuilt.
inline constexpr int kSchemaVersion = 3;

// The meta key of the change log token the index has applied.
inline constexpr const char* kChangeLogTokenKey = "token:change-log";

struct ColumnProperty {
  std::string_view property;  // canonical id
  std::string_view column;
  std::string_view sql_type;  // TEXT or INTEGER
  bool indexed;
};

// The built-in single-valued properties stored as columns of `objects`.
inline constexpr ColumnProperty kColumnProperties[] = {
    {cmis::kObjectId, "p_objectId", "TEXT", false},  // UNIQUE, see CreateSchemaSql
    {cmis::kBaseTypeId, "p_baseTypeId", "TEXT", false},
    {cmis::kObjectTypeId, "p_objectTypeId", "TEXT", true},
    {cmis::kName, "p_name", "TEXT", true},
    {cmis::kDescription, "p_description", "TEXT", false},
    {cmis::kCreatedBy, "p_createdBy", "TEXT", true},
    {cmis::kCreationDate, "p_creationDate", "INTEGER", true},
    {cmis::kLastModifiedBy, "p_lastModifiedBy", "TEXT", true},
    {cmis::kLastModificationDate, "p_lastModificationDate", "INTEGER", true},
    {cmis::kChangeToken, "p_changeToken", "TEXT", false},
    {cmis::kIsImmutable, "p_isImmutable", "INTEGER", false},
    {cmis::kIsLatestVersion, "p_isLatestVersion", "INTEGER", false},
    {cmis::kIsMajorVersion, "p_isMajorVersion", "INTEGER", false},
    {cmis::kIsLatestMajorVersion, "p_isLatestMajorVersion", "INTEGER", false},
    {cmis::kIsPrivateWorkingCopy, "p_isPrivateWorkingCopy", "INTEGER", false},
    {cmis::kVersionLabel, "p_versionLabel", "TEXT", false},
    {cmis::kVersionSeriesId, "p_versionSeriesId", "TEXT", true},
    {cmis::kIsVersionSeriesCheckedOut, "p_isVersionSeriesCheckedOut", "INTEGER", false},
    {cmis::kVersionSeriesCheckedOutBy, "p_versionSeriesCheckedOutBy", "TEXT", false},
    {cmis::kVersionSeriesCheckedOutId, "p_versionSeriesCheckedOutId", "TEXT", false},
    {cmis::kVersionSeriesCheckedOutDate, "p_versionSeriesCheckedOutDate", "INTEGER", false},
    {cmis::kCheckinComment, "p_checkinComment", "TEXT", false},
    {cmis::kContentStreamLength, "p_contentStreamLength", "INTEGER", false},
    {cmis::kContentStreamMimeType, "p_contentStreamMimeType", "TEXT", true},
    {cmis::kContentStreamFileName, "p_contentStreamFileName", "TEXT", false},
    {cmis::kContentStreamId, "p_contentStreamId", "TEXT", false},
    {cmis::kParentId, "p_parentId", "TEXT", false},
    {cmis::kPath, "p_path", "TEXT", true},
    {cmis::kSourceId, "p_sourceId", "TEXT", true},
    {cmis::kTargetId, "p_targetId", "TEXT", true},
    {cmis::kPolicyText, "p_policyText", "TEXT", false},
};

// The column of a built-in single-valued property; null for the others (props table).
const ColumnProperty* FindColumn(std::string_view property_id);

// Creates every table (IF NOT EXISTS), and their indexes unless a build is to make them
// once its rows are in (CreateIndexesSql): one sort per index instead of an insert into
// each for every row.
std::string CreateSchemaSql(bool with_indexes = true);
std::string CreateIndexesSql();
// Drops every table the index has (a rebuild starts from nothing).
std::string DropSchemaSql();

}  // namespace folio::query
