// Repository level (docs/API.md §7.5, §7.7–§7.9): repositoryInfo, types (the checked-out list
// is in versioning_ops.cc).
#include "api/ops/ops.h"
#include "api/properties_form.h"

namespace folio::api::ops {
namespace {

struct Paging {
  int64_t skip = 0;
  int64_t max = 100;
};

Result<Paging> ReadPaging(const Context& ctx) {
  Paging p;
  FOLIO_ASSIGN_OR_RETURN(p.max, ctx.params.GetInt("maxItems", 100, 0, 10000));
  FOLIO_ASSIGN_OR_RETURN(p.skip, ctx.params.GetInt("skipCount", 0, 0, INT64_MAX));
  return p;
}

Result<std::string> TypeIdParam(const Context& ctx, bool required) {
  std::string text;
  if (required) {
    FOLIO_ASSIGN_OR_RETURN(text, ctx.params.RequireString("typeId"));
  } else {
    FOLIO_ASSIGN_OR_RETURN(text, ctx.params.GetString("typeId"));
  }
  // CmisJS sends the id wrapped in JSON quotes (docs/API.md §3.8).
  return std::string(ToCanonicalTypeId(StripJsonQuotes(text)));
}

Result<Json> Descendants(Context& ctx, const Renderer& renderer, const std::string& type_id, int64_t depth,
                         bool with_defs, int level) {
  Json out = Json::array();
  if (depth == 0 || level > 64) return out;
  FOLIO_ASSIGN_OR_RETURN(std::vector<Json> children, ctx.repo->GetTypeChildren(type_id));
  for (const Json& t : children) {
    Json entry = {{"type", renderer.Type(t, with_defs)}};
    FOLIO_ASSIGN_OR_RETURN(Json sub, Descendants(ctx, renderer, t.value("id", ""), depth < 0 ? depth : depth - 1,
                                                 with_defs, level + 1));
    if (!sub.empty()) entry["children"] = std::move(sub);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

Result<Response> RepositoryInfo(Context& ctx) {
  Json out = Json::object();
  FOLIO_ASSIGN_OR_RETURN(ChangeLogStatus changes, ctx.repo->GetChangeLogStatus());
  out[ctx.repo->info().repository_id] =
      RepositoryInfoJson(ctx.repo->info(), ctx.variant, ctx.RepositoryUrl(), changes, ctx.options.read_only);
  return JsonResponse(200, out);
}

Result<Response> TypeChildren(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string type_id, TypeIdParam(ctx, false));
  FOLIO_ASSIGN_OR_RETURN(bool with_defs, ctx.params.GetBool("includePropertyDefinitions", false));
  FOLIO_ASSIGN_OR_RETURN(Paging paging, ReadPaging(ctx));
  FOLIO_ASSIGN_OR_RETURN(std::vector<Json> children, ctx.repo->GetTypeChildren(type_id));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  Renderer renderer(ctx.repo.get(), options);
  Json types = Json::array();
  const size_t skip = static_cast<size_t>(std::min<int64_t>(paging.skip, children.size()));
  for (size_t i = skip; i < children.size() && types.size() < static_cast<size_t>(paging.max); ++i) {
    types.push_back(renderer.Type(children[i], with_defs));
  }
  const bool more = skip + types.size() < children.size();
  return JsonResponse(200, Json{{"types", std::move(types)}, {"hasMoreItems", more}, {"numItems", children.size()}});
}

Result<Response> TypeDescendants(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string type_id, TypeIdParam(ctx, false));
  FOLIO_ASSIGN_OR_RETURN(bool with_defs, ctx.params.GetBool("includePropertyDefinitions", false));
  FOLIO_ASSIGN_OR_RETURN(int64_t depth, ctx.params.GetInt("depth", -1, -1, 1000));
  if (depth == 0) return InvalidArgument("parameter 'depth' must not be 0");
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  Renderer renderer(ctx.repo.get(), options);
  FOLIO_ASSIGN_OR_RETURN(Json out, Descendants(ctx, renderer, type_id, depth, with_defs, 0));
  return JsonResponse(200, out);
}

Result<Response> TypeDefinition(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string type_id, TypeIdParam(ctx, true));
  FOLIO_ASSIGN_OR_RETURN(Json type, ctx.repo->GetTypeDefinition(type_id));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  return JsonResponse(200, Renderer(ctx.repo.get(), options).Type(type, true));
}

namespace {

// The `type` parameter of createType and updateType with its type ids canonical (both
// spellings are accepted on input, docs/API.md §5). Errors: kInvalidArgument when
// missing or not a JSON object, or (`creating`) for a new id that is a built-in id
// without its prefix.
Result<Json> TypeInput(Context& ctx, bool creating) {
  FOLIO_ASSIGN_OR_RETURN(std::optional<Json> type, ctx.params.GetJsonObject("type"));
  if (!type) return InvalidArgument("missing required parameter 'type'");
  for (const char* key : {"parentId", "baseId"}) {
    if (type->contains(key) && (*type)[key].is_string()) {
      (*type)[key] = std::string(ToCanonicalTypeId((*type)[key].get<std::string>()));
    }
  }
  // Requests read "document" as cmis:document and "name" as cmis:name (in both
  // variants): a custom type or property spelled so could never be addressed.
  if (type->contains("id") && (*type)["id"].is_string() && !creating) {
    (*type)["id"] = std::string(ToCanonicalTypeId((*type)["id"].get<std::string>()));
  }
  if (type->contains("id") && (*type)["id"].is_string()) {
    const std::string& id = (*type)["id"].get_ref<const std::string&>();
    if (ToCanonicalTypeId(id) != id) {
      return InvalidArgument("type id '" + id + "' is the built-in '" + std::string(ToCanonicalTypeId(id)) +
                             "' without its prefix; choose another id");
    }
  }
  if (type->contains("propertyDefinitions") && (*type)["propertyDefinitions"].is_object()) {
    Json canonical = Json::object();
    for (auto& [pid, def] : (*type)["propertyDefinitions"].items()) {
      // A type read back in variant A spells inherited built-in properties without
      // their prefix: those are cmis: ones.
      const std::string id(ToCanonicalPropertyId(pid));
      // (value() would throw on an "inherited" that is not a boolean: that is not one.)
      const bool inherited = def.is_object() && def.contains("inherited") && def["inherited"] == true;
      if (id != pid && !inherited) {
        return InvalidArgument("property id '" + pid + "' is the built-in '" + id + "' without its prefix; choose "
                               "another id");
      }
      if (def.is_object() && def.contains("id")) def["id"] = id;
      if (def.is_object() && def.contains("queryName") && def["queryName"] == pid) def["queryName"] = id;
      canonical[id] = std::move(def);
    }
    (*type)["propertyDefinitions"] = std::move(canonical);
  }
  return *type;
}

}  // namespace

Result<Response> CreateType(Context& ctx) {
  // Type management needs cmis:all on the repository's root folder (docs/API.md §11.3):
  // checked before the request's definition is read, and again inside the change.
  FOLIO_RETURN_IF_ERROR(ctx.repo->RequireTypeManagement());
  FOLIO_ASSIGN_OR_RETURN(Json type, TypeInput(ctx, true));
  FOLIO_ASSIGN_OR_RETURN(Json made, ctx.repo->CreateType(type));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  return JsonResponse(201, Renderer(ctx.repo.get(), options).Type(made, true));
}

Result<Response> UpdateType(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(ctx.repo->RequireTypeManagement());
  FOLIO_ASSIGN_OR_RETURN(Json type, TypeInput(ctx, false));
  FOLIO_ASSIGN_OR_RETURN(Json changed, ctx.repo->UpdateType(type));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  return JsonResponse(200, Renderer(ctx.repo.get(), options).Type(changed, true));
}

Result<Response> DeleteType(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(ctx.repo->RequireTypeManagement());
  FOLIO_ASSIGN_OR_RETURN(std::string type_id, TypeIdParam(ctx, true));
  FOLIO_RETURN_IF_ERROR(ctx.repo->DeleteType(type_id));
  // CMIS answers an empty body, which a JSON client cannot parse: {} (docs/API.md §7.4).
  return JsonTextResponse(200, "{}");
}

}  // namespace folio::api::ops
