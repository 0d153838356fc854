// query (docs/API.md §12; CMIS Browser Binding, query): CMIS QL over the repository's query index
// (src/repo/query). The statement is parsed and bound to the repository's types there;
// this file reads the parameters, passes the variant's id spellings, and renders the
// matching objects (read again through the repository, so that what is shown is what
// the files hold now) with the selected columns only.
#include "api/cmis_names.h"
#include "api/ops/ops.h"
#include "repo/query/binder.h"
#include "repo/query/parser.h"
#include "repo/query/query_indexes.h"
#include "storage/look_once.h"

namespace folio::api::ops {
namespace {

Result<std::string> Statement(const Context& ctx) {
  // `statement` is the action's parameter, `q` the selector's; either is accepted with
  // either method (docs/API.md §12.1).
  for (const std::string_view name : {"statement", "q"}) {
    if (ctx.params.Has(name)) return ctx.params.GetString(name);
  }
  return InvalidArgument("missing required parameter 'statement' (or 'q'): the query to run");
}

}  // namespace

Result<Response> Query(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string statement, Statement(ctx));
  FOLIO_ASSIGN_OR_RETURN(bool all_versions, ctx.params.GetBool("searchAllVersions", false));
  FOLIO_ASSIGN_OR_RETURN(int64_t max, ctx.params.GetInt("maxItems", 100, 0, 10000));
  FOLIO_ASSIGN_OR_RETURN(int64_t skip, ctx.params.GetInt("skipCount", 0, 0, INT64_MAX));
  FOLIO_ASSIGN_OR_RETURN(bool actions, ctx.params.GetBool("includeAllowableActions", false));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  options.filter.reset();  // the select list says which properties a result has

  FOLIO_ASSIGN_OR_RETURN(query::ParsedQuery parsed, query::Parse(statement));
  query::IdSpelling spelling;
  spelling.property = [](std::string_view id) { return std::string(ToCanonicalPropertyId(id)); };
  spelling.type = [](std::string_view id) { return std::string(ToCanonicalTypeId(id)); };
  FOLIO_ASSIGN_OR_RETURN(query::BoundQuery bound, ctx.repo->BindQuery(parsed, spelling));

  if (ctx.query_indexes == nullptr) return RuntimeError("no query indexes for this request");
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<query::QueryIndex> index,
                         ctx.query_indexes->Get(ctx.domain_id, ctx.repository_id));
  query::QueryPage page;
  page.skip = static_cast<uint64_t>(skip);
  page.max = static_cast<uint64_t>(max);
  page.all_versions = all_versions;

  std::vector<ResultColumn> columns;
  if (bound.select_all) {
    for (const std::string& id : bound.all_properties) columns.push_back(ResultColumn{id, "", std::nullopt, ""});
  }
  size_t score_column = SIZE_MAX;  // none
  for (const query::OutputColumn& c : bound.columns) {
    if (c.score) score_column = columns.size();
    columns.push_back(
        ResultColumn{c.score ? "" : c.property.id, c.alias, c.score ? std::optional<Json>(1.0) : std::nullopt, ""});
  }

  Renderer renderer(ctx.repo.get(), std::move(options));
  renderer.PrepareQueryColumns(columns);
  std::string body;
  JsonWriter w(body);
  w.BeginObject().Key("results").BeginArray();
  // Only what the caller may read is matched, counted, paged and handed here
  // (acl::GuardedRepository::RunQuery).
  const acl::Checker checker = ctx.Checker();
  const auto write = [&](const ObjectData& object, double score) {
    if (score_column < columns.size()) columns[score_column].computed = score;
    if (actions) {
      const Json allowable = AllowableActions(object, checker);
      renderer.WriteQueryResult(object, columns, w, &allowable);
    } else {
      renderer.WriteQueryResult(object, columns, w);
    }
    return OkStatus();
  };
  // The hits share folders (their records, their adoption tables): each file is
  // looked at once for the page (an edit by hand made meanwhile is the next page's).
  const storage::LookOnce look_once;
  FOLIO_ASSIGN_OR_RETURN(acl::QueryCounts counts, ctx.repo->RunQuery(*index, bound, page, write));
  w.EndArray();
  w.Key("hasMoreItems").Bool(page.skip + counts.matched < counts.total);
  w.Key("numItems").Int(static_cast<int64_t>(counts.total));
  w.EndObject();
  return JsonTextResponse(200, std::move(body));
}

}  // namespace folio::api::ops
