// A bound query as SQL over the index's tables (schema.h): one statement that counts the
// matches and one that returns a page of them in order, with their parameters.
//
// Every predicate becomes a condition that an index can drive: a column comparison
// (p_name = ?), a range for LIKE with a literal prefix, `rid IN (SELECT obj FROM props
// WHERE prop = ? AND v ...)` for custom and multi-valued properties, the folder column for
// IN_FOLDER and a recursive walk of folder ids for IN_TREE, an FTS5 MATCH for CONTAINS.
// Each is written so that it is true exactly when the CMIS predicate is true (a
// comparison with a property that is not set is never true, nor is its negation: NOT was
// pushed down by the binder), so SQLite's own NULL rules never decide a result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "repo/query/bound_query.h"

namespace folio::query {

struct SqlPlan {
  std::string count_sql;
  std::vector<SqlValue> count_params;
  std::string page_sql;  // columns: p_objectId, score
  std::vector<SqlValue> page_params;
};

// `all_versions`: searchAllVersions (every version, not only the latest of each series).
// `readers`: null for every object; else only the objects whose ACL lets one of these
// principals read them (the readers table), in the count and the page alike.
SqlPlan PlanQuery(const BoundQuery& query, bool all_versions, uint64_t skip, uint64_t max,
                  const std::vector<std::string>* readers = nullptr);

}  // namespace folio::query
