// Context methods and the helpers the operation families share.
#include <algorithm>
#include <array>
#include <utility>

#include "api/acl_input.h"
#include "api/cmis_names.h"
#include "folio/cmis_ids.h"
#include "api/ops/operation_table.h"
#include "api/ops/ops.h"
#include "api/properties_form.h"
#include "api/request.h"
#include "storage/datetime.h"

namespace folio::api::ops {

std::string Context::RepositoryUrl() const {
  return request.base_url + "/" + domain_id + "/" + repository_id;
}

bool Context::HasTarget() const {
  return params.Has("objectId") || params.Has("folderId") || path_given;
}

acl::Action Context::TargetAction() const {
  return OperationRowFor(op).target_action.value_or(acl::Action::kRead);
}

Result<const ObjectData*> Context::Target() {
  if (!repo) return RuntimeError("no repository for an object operation");
  if (target_) {
    if (!target_checked_) {
      FOLIO_RETURN_IF_ERROR(repo->Require(TargetAction(), *target_));
      target_checked_ = true;
    }
    return target_.get();
  }
  const std::string_view id_param = params.Has("objectId") ? "objectId" : "folderId";
  if (params.Has(id_param)) {
    FOLIO_ASSIGN_OR_RETURN(target_key_, params.GetString(id_param));
  } else if (path.empty()) {
    target_key_ = repo->info().root_folder_id;
  } else {
    target_key_ = path;
    target_by_path_ = true;
  }
  FOLIO_ASSIGN_OR_RETURN(target_, target_by_path_ ? repo->GetObjectByPath(target_key_, TargetAction())
                                                  : repo->GetObject(target_key_, TargetAction()));
  target_checked_ = true;
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
  return ObjectWriter(Renderer(ctx.repo.get(), std::move(options)), actions, ctx.Checker());
}

void ObjectWriter::Write(const ObjectData& object, JsonWriter& w, const Json* extra) {
  if (!actions_) {
    renderer_.WriteObject(object, w, nullptr, extra);
    return;
  }
  const Json actions = AllowableActions(object, checker_);
  renderer_.WriteObject(object, w, &actions, extra);
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

Result<ObjectData> UpdateTarget(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* target, ctx.Target());
  if (target->base != BaseType::kDocument || target->is_pwc) return *target;
  const auto pwc = target->properties.find(cmis::kVersionSeriesCheckedOutId);
  if (pwc == target->properties.end() || !pwc->is_string()) return *target;
  if (ctx.params.Has("objectId")) {
    FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.GetString("objectId"));
    if (id != target->series_id) return *target;  // that very version, by its own id
  }
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> working_copy,
                         ctx.repo->GetObject(pwc->get<std::string>(), ctx.TargetAction()));
  return *working_copy;
}

Status CheckChangeToken(const Context& ctx, const ObjectData& object) {
  FOLIO_ASSIGN_OR_RETURN(std::string token, ctx.params.GetString("changeToken"));
  return CheckToken(object, token);
}

Result<std::unique_ptr<Upload>> CopyIntoUpload(Context& ctx, const std::vector<ReadableFile*>& sources) {
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Upload> upload, ctx.repo->NewUpload());
  for (ReadableFile* src : sources) {
    FOLIO_RETURN_IF_ERROR(src->Seek(0));
    FOLIO_RETURN_IF_ERROR(upload->WriteFrom(*src));
  }
  FOLIO_RETURN_IF_ERROR(upload->Finish());
  return upload;
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

Status NormalizeDatetimes(acl::GuardedRepository& repo, const std::string& type_id, Json& properties) {
  // Most writes (checkOut, checkIn, setContent) carry no property: no type to build.
  if (!properties.is_object() || properties.empty()) return OkStatus();
  auto type = repo.GetTypeDefinition(type_id);
  if (!type.ok()) return OkStatus();  // the engine reports the unknown type
  const auto found = type->find("propertyDefinitions");
  if (found == type->end() || !found->is_object()) return OkStatus();
  const Json& defs = *found;
  for (auto it = properties.begin(); it != properties.end(); ++it) {
    auto def = defs.find(it.key());
    if (def == defs.end() || def->value("propertyType", "") != "datetime" || it->is_null()) continue;
    auto convert = [&](Json& v) -> Status {
      if (v.is_null()) return OkStatus();
      auto ms = storage::ParseDateTimeValue(v);
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

namespace {

// Plain fields that stand for a property, beside `properties` and the form pairs: what a
// curl user types first (`-F name=q3.txt`, `-d name=new.txt`).
constexpr std::array<std::string_view, 2> kPlainNameFields = {"name", kPropName};

// Adds the plain name field, if given, to `props` as cmis:name.
// Errors: kInvalidArgument for a value that is not a string, or a name given twice
// with two different values.
Status AddPlainNameField(const Params& params, Json& props) {
  for (const std::string_view field : kPlainNameFields) {
    const Json* value = params.Find(field);
    if (value == nullptr) continue;
    if (!value->is_string()) {
      return InvalidArgument("parameter '" + std::string(field) + "' must be a string, got " +
                             std::string(JsonTypeForMessage(*value)));
    }
    const std::string key(kPropName);
    if (auto it = props.find(key); it != props.end() && !it->is_null() && *it != *value) {
      return InvalidArgument("the name is given twice: as the field '" + std::string(field) + "' (" + value->dump() +
                             ") and as the property '" + key + "' (" + it->dump() + ")");
    }
    props[key] = *value;
  }
  return OkStatus();
}

}  // namespace

std::string HowToPassProperties() {
  return "send properties as a JSON object 'properties', as form fields propertyId[N] with propertyValue[N], "
         "or the name alone as the field 'name' (or 'cmis:name')";
}

Result<Json> InputProperties(Context& ctx, const std::string& type_id) {
  FOLIO_ASSIGN_OR_RETURN(Json props, ReadProperties(ctx.params));
  FOLIO_RETURN_IF_ERROR(AddPlainNameField(ctx.params, props));
  for (const std::string_view key : {kPropObjectTypeId, kPropBaseTypeId}) {
    auto it = props.find(std::string(key));
    if (it != props.end() && it->is_string()) {
      *it = std::string(ToCanonicalTypeId(StripJsonQuotes(it->get_ref<const std::string&>())));
    }
  }
  if (ctx.repo && !type_id.empty()) FOLIO_RETURN_IF_ERROR(NormalizeDatetimes(*ctx.repo, type_id, props));
  return props;
}

Result<std::optional<ContentSource>> InputContent(Context& ctx) {
  const auto& file = ctx.request.file;
  if (const Json* text = ctx.params.Find("content")) {
    if (file) return InvalidArgument("content is given twice: as a file part and as the parameter 'content'");
    if (!text->is_string()) {
      return InvalidArgument("parameter 'content' must be a string (UTF-8 text), got " +
                             std::string(JsonTypeForMessage(*text)) +
                             "; send other content as the file part 'content' of a multipart/form-data body");
    }
    if (!ctx.repo) return InvalidArgument("content sent to a URL outside a repository");
    FOLIO_ASSIGN_OR_RETURN(std::string mime_type, ctx.params.GetString("mimeType"));
    return std::optional<ContentSource>(ContentSource::FromBytes(text->get<std::string>(), std::move(mime_type)));
  }
  if (!file) return std::optional<ContentSource>();
  UploadedContent* part =
      file->spooled_path.empty() || ctx.uploads == nullptr ? nullptr : ctx.uploads->Find(file->spooled_path);
  if (part == nullptr) return InvalidArgument("content part sent to a URL outside a repository");
  std::string mime_type;
  const std::string media = MediaType(file->content_type);
  if (!media.empty() && media != "application/octet-stream") mime_type = file->content_type;
  if (part->bytes) {
    return std::optional<ContentSource>(ContentSource::FromBytes(*part->bytes, std::move(mime_type), file->file_name));
  }
  return std::optional<ContentSource>(part->file->AsContent(std::move(mime_type), file->file_name));
}

namespace {

// A readable file over bytes in memory (content that never touched the disk).
class MemoryFile : public ReadableFile {
 public:
  explicit MemoryFile(std::string bytes) : bytes_(std::move(bytes)) {}
  Result<size_t> Read(char* buf, size_t n) override {
    const size_t k = std::min(n, bytes_.size() - pos_);
    std::copy_n(bytes_.data() + pos_, k, buf);
    pos_ += k;
    return k;
  }
  Status Seek(uint64_t offset) override {
    pos_ = static_cast<size_t>(std::min<uint64_t>(offset, bytes_.size()));
    return OkStatus();
  }
  uint64_t size() const override { return bytes_.size(); }
  Result<FileStat> Stat() const override {
    FileStat st;
    st.type = FileType::kFile;
    st.size = bytes_.size();
    return st;
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

}  // namespace

Result<std::unique_ptr<ReadableFile>> ReadInputContent(Context& ctx, const ContentSource& content) {
  if (content.bytes) return std::unique_ptr<ReadableFile>(new MemoryFile(*content.bytes));
  UploadedContent* part = ctx.request.file && ctx.uploads != nullptr ? ctx.uploads->Find(ctx.request.file->spooled_path)
                                                                     : nullptr;
  if (part == nullptr || !part->file) return RuntimeError("the request's content is gone");
  return part->file->Read();
}

}  // namespace folio::api::ops
