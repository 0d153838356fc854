// Context methods and the helpers the operation families share.
#include <algorithm>
#include <utility>

#include "api/acl_input.h"
#include "api/cmis_names.h"
#include "api/datetime.h"
#include "api/ops/ops.h"
#include "api/properties_form.h"
#include "api/request.h"

namespace folio::api::ops {

std::string Context::RepositoryUrl() const {
  return request.base_url + "/" + domain_id + "/" + repository_id;
}

bool Context::HasTarget() const {
  return params.Has("objectId") || params.Has("folderId") || path_given;
}

Result<const ObjectData*> Context::Target() {
  if (target_) return target_.get();
  if (!repo) return RuntimeError("no repository for an object operation");
  Result<std::shared_ptr<const ObjectData>> object = ObjectNotFound("no target");
  const std::string_view id_param = params.Has("objectId") ? "objectId" : "folderId";
  if (params.Has(id_param)) {
    FOLIO_ASSIGN_OR_RETURN(std::string text, params.GetString(id_param));
    object = repo->GetObjectShared(text);
  } else if (path.empty()) {
    object = repo->GetObjectShared(repo->info().root_folder_id);
  } else {
    object = repo->GetObjectByPathShared(path);
  }
  if (!object.ok()) return object.status();
  target_ = std::move(*object);
  return target_.get();
}

Result<RenderOptions> Context::Rendering() const {
  RenderOptions r;
  r.variant = variant;
  FOLIO_ASSIGN_OR_RETURN(r.succinct, params.GetBool("succinct", DefaultSuccinct(variant)));
  FOLIO_ASSIGN_OR_RETURN(std::string filter, params.GetString("filter"));
  FOLIO_ASSIGN_OR_RETURN(r.filter, ParseFilter(filter));
  FOLIO_ASSIGN_OR_RETURN(std::string format, params.GetString("dateTimeFormat", "simple"));
  if (format == "extended") {
    r.extended_dates = true;
  } else if (format != "simple") {
    return InvalidArgument("parameter 'dateTimeFormat' must be simple or extended, got '" + format + "'");
  }
  return r;
}

Response JsonResponse(int status, const Json& body) {
  Response r;
  r.status = status;
  r.content_type = "application/json; charset=UTF-8";
  r.body = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  return r;
}

Response JsonTextResponse(int status, std::string body) {
  Response r;
  r.status = status;
  r.content_type = "application/json; charset=UTF-8";
  r.body = std::move(body);
  return r;
}

Response EmptyResponse(int status) {
  Response r;
  r.status = status;
  return r;
}

Result<ObjectWriter> ObjectWriter::For(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  FOLIO_ASSIGN_OR_RETURN(bool actions, ctx.params.GetBool("includeAllowableActions", false));
  return ObjectWriter(Renderer(ctx.repo.get(), std::move(options)), actions);
}

void ObjectWriter::Write(const ObjectData& object, JsonWriter& w) {
  if (!actions_) {
    renderer_.WriteObject(object, w);
    return;
  }
  const Json actions = AllowableActions(object);
  renderer_.WriteObject(object, w, &actions);
}

Status CheckToken(const ObjectData& object, std::string_view token) {
  if (token.empty()) return OkStatus();
  const auto current = object.properties.find(std::string(kPropChangeToken));
  if (current != object.properties.end() && current->is_string() &&
      current->get_ref<const std::string&>() != token) {
    return UpdateConflict("object '" + object.id + "' has changed: change token '" + std::string(token) +
                          "' is stale");
  }
  return OkStatus();
}

Status CheckChangeToken(const Context& ctx, const ObjectData& object) {
  FOLIO_ASSIGN_OR_RETURN(std::string token, ctx.params.GetString("changeToken"));
  return CheckToken(object, token);
}

Result<std::string> CopyIntoUpload(Context& ctx, const std::vector<ReadableFile*>& sources) {
  FOLIO_ASSIGN_OR_RETURN(Upload upload, ctx.repo->NewUpload());
  Status status = OkStatus();
  for (ReadableFile* src : sources) {
    status = src->Seek(0);
    if (status.ok()) status = upload.file->AppendFrom(*src);
    if (!status.ok()) break;
  }
  if (status.ok()) status = upload.file->Sync();
  if (status.ok()) status = upload.file->Close();
  if (!status.ok()) {
    (void)ctx.store.fs().Remove(upload.path);
    return status;
  }
  return upload.path;
}

Result<Response> ObjectListResponse(Context& ctx, const std::vector<const ObjectData*>& objects) {
  FOLIO_ASSIGN_OR_RETURN(int64_t max, ctx.params.GetInt("maxItems", 100, 0, 10000));
  FOLIO_ASSIGN_OR_RETURN(int64_t skip, ctx.params.GetInt("skipCount", 0, 0, INT64_MAX));
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  std::string body;
  JsonWriter w(body);
  w.BeginObject().Key("objects").BeginArray();
  const size_t first = static_cast<size_t>(std::min<int64_t>(skip, static_cast<int64_t>(objects.size())));
  const size_t end = first + std::min<size_t>(static_cast<size_t>(max), objects.size() - first);
  for (size_t i = first; i < end; ++i) writer.Write(*objects[i], w);
  w.EndArray().Key("hasMoreItems").Bool(end < objects.size());
  w.Key("numItems").Int(static_cast<int64_t>(objects.size())).EndObject();
  return JsonTextResponse(200, std::move(body));
}

Result<Response> ObjectResponse(Context& ctx, const ObjectData& object, int status) {
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  std::string body;
  body.reserve(2048);
  JsonWriter w(body);
  writer.Write(object, w);
  Response r = JsonTextResponse(status, std::move(body));
  if (status == 201) r.headers.emplace_back("Location", ctx.RepositoryUrl() + "?objectId=" + object.id);
  return r;
}

Status NormalizeDatetimes(Repository& repo, const std::string& type_id, Json& properties) {
  auto type = repo.GetTypeDefinition(type_id);
  if (!type.ok()) return OkStatus();  // the engine reports the unknown type
  const Json defs = type->value("propertyDefinitions", Json::object());
  for (auto it = properties.begin(); it != properties.end(); ++it) {
    auto def = defs.find(it.key());
    if (def == defs.end() || def->value("propertyType", "") != "datetime" || it->is_null()) continue;
    auto convert = [&](Json& v) -> Status {
      if (v.is_null()) return OkStatus();
      auto ms = ParseDateTimeValue(v);
      if (!ms.ok()) return InvalidArgument("property '" + it.key() + "': " + ms.status().message());
      v = *ms;
      return OkStatus();
    };
    if (it->is_array()) {
      for (Json& v : *it) FOLIO_RETURN_IF_ERROR(convert(v));
    } else {
      FOLIO_RETURN_IF_ERROR(convert(*it));
    }
  }
  return OkStatus();
}

Result<Json> InputProperties(Context& ctx, const std::string& type_id) {
  FOLIO_ASSIGN_OR_RETURN(Json props, ReadProperties(ctx.params));
  for (const std::string_view key : {kPropObjectTypeId, kPropBaseTypeId}) {
    auto it = props.find(std::string(key));
    if (it != props.end() && it->is_string()) {
      *it = std::string(ToCanonicalTypeId(StripJsonQuotes(it->get_ref<const std::string&>())));
    }
  }
  if (ctx.repo && !type_id.empty()) FOLIO_RETURN_IF_ERROR(NormalizeDatetimes(*ctx.repo, type_id, props));
  return props;
}

Result<std::optional<ContentSource>> InputContent(const Context& ctx) {
  const auto& file = ctx.request.file;
  if (!file) return std::optional<ContentSource>();
  if (file->spooled_path.empty()) {
    return InvalidArgument("content part sent to a URL outside a repository");
  }
  ContentSource c;
  const std::string media = MediaType(file->content_type);
  if (!media.empty() && media != "application/octet-stream") c.mime_type = file->content_type;
  c.file_name = file->file_name;
  c.upload_path = file->spooled_path;
  return std::optional<ContentSource>(std::move(c));
}

Result<std::vector<folio::Ace>> InputAces(const Context& ctx, bool add) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<Ace> aces, ReadAces(ctx.params, add ? AceList::kAdd : AceList::kRemove));
  return ToEngineAces(std::move(aces));
}

}  // namespace folio::api::ops
