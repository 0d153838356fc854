// Checks a parsed statement against the repository's types and resolves its names: the
// FROM type by query name (with the subtypes its query includes), every property by
// query name in that type, each value against its property's type.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "folio/repository.h"
#include "folio/status.h"
#include "repo/query/ast.h"
#include "repo/query/bound_query.h"

namespace folio::query {

// How the client may spell built-in ids: the api layer passes its variant rules
// ("name" -> "cmis:name", "document" -> "cmis:document"), so that both spellings are
// accepted in both variants (docs/API.md §5). Identity when unset.
struct IdSpelling {
  std::function<std::string(std::string_view)> property;
  std::function<std::string(std::string_view)> type;
};

// Binds `parsed`. Reads type definitions through `repo`, and the folders named by
// IN_FOLDER and IN_TREE.
// Errors (all kInvalidArgument, naming the culprit and where it is): an unknown or
// non-queryable type; an unknown property, or one the FROM type does not have; a
// qualifier that is neither the FROM type nor its alias; a value that does not fit its
// property's type, or an operator that does not (ordering a boolean, LIKE on a number,
// ANY on a single-valued property, a comparison on a multi-valued one); ORDER BY on a
// multi-valued or non-orderable property; CONTAINS on a type that is not full-text
// indexed or with no word; IN_FOLDER/IN_TREE naming something that is not a folder;
// a result key given twice. kStorage if the types cannot be read.
Result<BoundQuery> Bind(const ParsedQuery& parsed, Repository& repo, const IdSpelling& spelling = {});

}  // namespace folio::query
