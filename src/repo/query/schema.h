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
    {"cmis:objectId", "p_objectId", "TEXT", false},  // UNIQUE, see CreateSchemaSql
    {"cmis:baseTypeId", "p_baseTypeId", "TEXT", false},
    {"cmis:objectTypeId", "p_objectTypeId", "TEXT", true},
    {"cmis:name", "p_name", "TEXT", true},
    {"cmis:description", "p_description", "TEXT", false},
    {"cmis:createdBy", "p_createdBy", "TEXT", true},
    {"cmis:creationDate", "p_creationDate", "INTEGER", true},
    {"cmis:lastModifiedBy", "p_lastModifiedBy", "TEXT", true},
    {"cmis:lastModificationDate", "p_lastModificationDate", "INTEGER", true},
    {"cmis:changeToken", "p_changeToken", "TEXT", false},
    {"cmis:isImmutable", "p_isImmutable", "INTEGER", false},
    {"cmis:isLatestVersion", "p_isLatestVersion", "INTEGER", false},
    {"cmis:isMajorVersion", "p_isMajorVersion", "INTEGER", false},
    {"cmis:isLatestMajorVersion", "p_isLatestMajorVersion", "INTEGER", false},
    {"cmis:isPrivateWorkingCopy", "p_isPrivateWorkingCopy", "INTEGER", false},
    {"cmis:versionLabel", "p_versionLabel", "TEXT", false},
    {"cmis:versionSeriesId", "p_versionSeriesId", "TEXT", true},
    {"cmis:isVersionSeriesCheckedOut", "p_isVersionSeriesCheckedOut", "INTEGER", false},
    {"cmis:versionSeriesCheckedOutBy", "p_versionSeriesCheckedOutBy", "TEXT", false},
    {"cmis:versionSeriesCheckedOutId", "p_versionSeriesCheckedOutId", "TEXT", false},
    {"cmis:versionSeriesCheckedOutDate", "p_versionSeriesCheckedOutDate", "INTEGER", false},
    {"cmis:checkinComment", "p_checkinComment", "TEXT", false},
    {"cmis:contentStreamLength", "p_contentStreamLength", "INTEGER", false},
    {"cmis:contentStreamMimeType", "p_contentStreamMimeType", "TEXT", true},
    {"cmis:contentStreamFileName", "p_contentStreamFileName", "TEXT", false},
    {"cmis:contentStreamId", "p_contentStreamId", "TEXT", false},
    {"cmis:parentId", "p_parentId", "TEXT", false},
    {"cmis:path", "p_path", "TEXT", true},
    {"cmis:sourceId", "p_sourceId", "TEXT", true},
    {"cmis:targetId", "p_targetId", "TEXT", true},
    {"cmis:policyText", "p_policyText", "TEXT", false},
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
