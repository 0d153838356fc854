// Rendering engine objects as Browser Binding JSON (docs/API.md §4.1, §4.2, §4.5): the detailed
// `properties` form or `succinctProperties`, property filters, type definitions and
// repositoryInfo, with ids spelled for the repository's variant (through variant.h,
// the one translation layer; the engine's ids are always canonical).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/json_input.h"
#include "api/json_writer.h"
#include "api/variant.h"
#include "folio/object.h"
#include "folio/repository.h"
#include "folio/status.h"

namespace folio::acl {
class GuardedRepository;
}

namespace folio::api {

// A property filter: canonical ids, or nullopt for all properties.
using PropertyFilter = std::optional<std::set<std::string, std::less<>>>;

// Parses `filter` (comma-separated property ids or query names in either spelling;
// "*" or "" means all). Errors: kFilterNotValid naming an entry that is not an id.
Result<PropertyFilter> ParseFilter(std::string_view filter);

struct RenderOptions {
  Variant variant = Variant::kB;
  bool succinct = false;
  bool extended_dates = false;  // dateTimeFormat=extended: ISO 8601 strings, not ms
  PropertyFilter filter;
};

// One column of a query result (docs/API.md §12): a property of the object, or a value the
// query computed (SCORE()). Keyed by `alias` when given, else by the property id in the
// variant's spelling; in the detailed form `queryName` is that key.
struct ResultColumn {
  std::string property_id;      // canonical; "" for a computed value
  std::string alias;            // "" when not aliased (computed values always have one)
  std::optional<Json> computed;  // the value of a computed column
  std::string quoted_key;        // the key as JSON text (Renderer::PrepareQueryColumns); "": made per result
};

class Renderer {
 public:
  // `repo` supplies type definitions for the detailed form; may be null (then property
  // types are inferred from the values).
  Renderer(acl::GuardedRepository* repo, RenderOptions options) : repo_(repo), options_(std::move(options)) {}

  const RenderOptions& options() const { return options_; }

  // Writes {"succinctProperties": {...}} or {"properties": {...}}, with an
  // "allowableActions" member when `allowable_actions` is given, and the members of
  // `extra` (a JSON object) when given.
  void WriteObject(const ObjectData& object, JsonWriter& w, const Json* allowable_actions = nullptr,
                   const Json* extra = nullptr);
  // Writes the bare property map (the `properties` selector). In variant A a custom
  // property whose id is a built-in id without its prefix ("name") is left out: it
  // would print as the built-in one, and no request could address it.
  void WriteProperties(const ObjectData& object, JsonWriter& w);
  // Writes a query result: {"succinctProperties": {...}} or {"properties": {...}} with the
  // given columns only, in order (a property the object lacks is null), and an
  // "allowableActions" member when `allowable_actions` is given.
  void WriteQueryResult(const ObjectData& object, const std::vector<ResultColumn>& columns, JsonWriter& w,
                        const Json* allowable_actions = nullptr);
  // Sets each column's quoted_key for this renderer's variant, so that the results of a
  // page do not quote their keys each (the succinct form).
  void PrepareQueryColumns(std::vector<ResultColumn>& columns) const;
  // A type definition in the variant's spelling; without its property definitions
  // unless `with_property_definitions`.
  Json Type(const Json& type, bool with_property_definitions) const;

 private:
  // A type's property definitions with an index by id (ordered_json finds linearly);
  // null when there is no repository or no such type.
  const PropertyDefinitionIndex* PropertyDefinitions(const std::string& type_id);
  // The definition of property `id` of `object`: from `defs` (its type's), else from
  // those of the secondary types it lists; null when none defines it.
  const Json* Definition(const ObjectData& object, const PropertyDefinitionIndex* defs, const std::string& id);
  void WriteValue(std::string_view id, const Json& value, const Json* definition, JsonWriter& w) const;
  void WriteDetailed(std::string_view id, std::string_view response_id, std::string_view query_name,
                     const Json& value, const Json* definition, JsonWriter& w) const;

  acl::GuardedRepository* repo_;
  RenderOptions options_;
  // By type id: the repository's shared index, held for this renderer's answer.
  std::map<std::string, std::shared_ptr<const PropertyDefinitionIndex>, std::less<>> types_;
};

// The repositoryInfo of `info` (docs/API.md §4.4); `repository_url` is absolute.
// `changes`: the state of its change log (latestChangeLogToken, changesIncomplete);
// `read_only`: the server refuses every write (serve --read-only), said as readOnly.
Json RepositoryInfoJson(const RepositoryInfo& info, Variant variant, const std::string& repository_url,
                        const ChangeLogStatus& changes, bool read_only);

}  // namespace folio::api
