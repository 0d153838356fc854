// Service::Handle: level, operation and target of a request, then the operation.
#include "api/dispatch.h"

#include "api/ascii.h"
#include "api/cmis_names.h"
#include "api/error_response.h"
#include "api/ops/ops.h"
#include "api/url.h"

namespace folio::api {
namespace {

using ops::Context;
using ops::Level;
using Handler = Result<Response> (*)(Context&);

struct Route {
  Operation op;
  Level level;
  Handler handler;
};

// Which operation runs where. Repository-level and object operations share the
// repository URL and every path below it (repositoryUrl == rootFolderUrl, binding §0.1).
constexpr Route kRoutes[] = {
    {Operation::kGetDomains, Level::kServer, ops::GetDomains},
    {Operation::kCreateDomain, Level::kServer, ops::CreateDomain},
    {Operation::kDeleteDomain, Level::kServer, ops::DeleteDomain},
    {Operation::kGetRepositories, Level::kDomain, ops::GetRepositories},
    {Operation::kCreateRepository, Level::kDomain, ops::CreateRepository},
    {Operation::kDeleteRepository, Level::kDomain, ops::DeleteRepository},
    {Operation::kRepositoryInfo, Level::kRepository, ops::RepositoryInfo},
    {Operation::kTypeChildren, Level::kRepository, ops::TypeChildren},
    {Operation::kTypeDescendants, Level::kRepository, ops::TypeDescendants},
    {Operation::kTypeDefinition, Level::kRepository, ops::TypeDefinition},
    {Operation::kCreateType, Level::kRepository, ops::CreateType},
    {Operation::kDeleteType, Level::kRepository, ops::DeleteType},
    {Operation::kCheckedOut, Level::kRepository, ops::CheckedOut},
    {Operation::kObject, Level::kRepository, ops::GetObject},
    {Operation::kProperties, Level::kRepository, ops::GetProperties},
    {Operation::kAllowableActions, Level::kRepository, ops::GetAllowableActions},
    {Operation::kRenditions, Level::kRepository, ops::GetNoneOfThem},
    {Operation::kRelationships, Level::kRepository, ops::GetObjectRelationships},
    {Operation::kPolicies, Level::kRepository, ops::GetNoneOfThem},
    {Operation::kContent, Level::kRepository, ops::GetContent},
    {Operation::kChildren, Level::kRepository, ops::GetChildren},
    {Operation::kParent, Level::kRepository, ops::GetParent},
    {Operation::kParents, Level::kRepository, ops::GetParents},
    {Operation::kVersions, Level::kRepository, ops::GetAllVersions},
    {Operation::kAcl, Level::kRepository, ops::GetAcl},
    {Operation::kCreateObject, Level::kRepository, ops::CreateObject},
    {Operation::kCreateDocument, Level::kRepository, ops::CreateObject},
    {Operation::kCreateFolder, Level::kRepository, ops::CreateObject},
    {Operation::kCreateItem, Level::kRepository, ops::CreateObject},
    {Operation::kCreateRelationship, Level::kRepository, ops::CreateObject},
    {Operation::kUpdate, Level::kRepository, ops::UpdateProperties},
    {Operation::kBulkUpdate, Level::kRepository, ops::BulkUpdate},
    {Operation::kDelete, Level::kRepository, ops::DeleteObject},
    {Operation::kDeleteTree, Level::kRepository, ops::DeleteTree},
    {Operation::kSetContent, Level::kRepository, ops::SetContent},
    {Operation::kDeleteContent, Level::kRepository, ops::DeleteContent},
    {Operation::kAppendContent, Level::kRepository, ops::AppendContent},
    {Operation::kCreateDocumentFromSource, Level::kRepository, ops::CreateDocumentFromSource},
    {Operation::kMove, Level::kRepository, ops::Move},
    {Operation::kCheckOut, Level::kRepository, ops::CheckOut},
    {Operation::kCheckIn, Level::kRepository, ops::CheckIn},
    {Operation::kCancelCheckOut, Level::kRepository, ops::CancelCheckOut},
};

const Route* FindRoute(Operation op) {
  for (const Route& r : kRoutes) {
    if (r.op == op) return &r;
  }
  return nullptr;
}

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kServer: return "the server URL";
    case Level::kDomain: return "a domain URL";
    case Level::kRepository: return "a repository URL";
  }
  return "";
}

std::string JoinPath(const std::vector<std::string>& segments, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (!out.empty()) out += '/';
    out += segments[i];
  }
  return out;
}

bool SuppressFromQuery(const Request& request) {
  for (const auto& [name, value] : request.query) {
    if (EqualsIgnoreCase(name, kParamSuppressResponseCodes) && EqualsIgnoreCase(value, "true")) return true;
  }
  return false;
}

// The operation a GET without one means (CONTRACT §2; binding §2.1).
Result<Operation> DefaultOperation(Context& ctx) {
  const bool get = ctx.request.method == "GET" || ctx.request.method == "HEAD";
  if (!get) return InvalidArgument("missing required parameter 'operation' (or cmisaction)");
  switch (ctx.level) {
    case Level::kServer: return Operation::kGetDomains;
    case Level::kDomain: return Operation::kGetRepositories;
    case Level::kRepository: break;
  }
  if (!ctx.HasTarget()) return Operation::kRepositoryInfo;
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* target_ptr, ctx.Target());
  const ObjectData& target = *target_ptr;
  switch (target.base) {
    case BaseType::kFolder: return Operation::kChildren;
    case BaseType::kDocument: return Operation::kContent;
    default: return Operation::kObject;
  }
}

class DiscardSink : public UploadSink {
 public:
  Status Write(std::string_view) override { return OkStatus(); }
  Result<std::string> Finish() override { return std::string(); }
};

// An upload file; removed when destroyed unless Finish() handed it on.
class FileSink : public UploadSink {
 public:
  FileSink(Fs& fs, Upload upload) : fs_(fs), upload_(std::move(upload)) {}
  ~FileSink() override {
    if (finished_) return;
    (void)upload_.file->Close();
    (void)fs_.Remove(upload_.path);
  }
  Status Write(std::string_view bytes) override { return upload_.file->Append(bytes); }
  Result<std::string> Finish() override {
    FOLIO_RETURN_IF_ERROR(upload_.file->Sync());
    FOLIO_RETURN_IF_ERROR(upload_.file->Close());
    finished_ = true;
    return upload_.path;
  }

 private:
  Fs& fs_;
  Upload upload_;
  bool finished_ = false;
};

}  // namespace

Response Service::ErrorFor(const Status& status, bool suppress_response_codes) {
  const ErrorResponse e = MakeErrorResponse(status, suppress_response_codes);
  Response r;
  r.status = e.http_status;
  r.content_type = "application/json; charset=UTF-8";
  r.body = e.body;
  r.exception = e.exception;
  r.message = e.message;
  if (status.kind() == ErrorKind::kUnauthorized) {
    r.headers.emplace_back("WWW-Authenticate", "Basic realm=\"Folio\", charset=\"UTF-8\"");
  }
  return r;
}

std::unique_ptr<UploadSink> Service::OpenUpload(const std::vector<std::string>& path) {
  if (path.size() < 2) return std::make_unique<DiscardSink>();
  auto repo = store_.GetRepository(path[0], path[1]);
  if (!repo.ok()) return std::make_unique<DiscardSink>();
  auto upload = (*repo)->NewUpload();
  if (!upload.ok()) return std::make_unique<DiscardSink>();
  return std::make_unique<FileSink>(store_.fs(), std::move(*upload));
}

void Service::ReleaseUpload(const Request& request) {
  if (request.file && !request.file->spooled_path.empty()) {
    // Consumed uploads were moved into place; anything left is garbage.
    (void)store_.fs().Remove(request.file->spooled_path);
  }
}

Response Service::Handle(const Request& request) {
  Response response = Run(request);
  ReleaseUpload(request);
  return response;
}

Response Service::Run(const Request& request) {
  auto params_or = Params::FromRequest(request);
  if (!params_or.ok()) return ErrorFor(params_or.status(), SuppressFromQuery(request));
  const Params& params = *params_or;
  const auto suppress_or = params.GetBool(kParamSuppressResponseCodes, false);
  const bool suppress = suppress_or.ok() && *suppress_or;
  std::string op_name;
  auto fail = [&](const Status& s) {
    Response r = ErrorFor(s, suppress);
    r.operation = op_name;
    return r;
  };

  const std::vector<std::string>& segments = request.path;
  Context ctx(store_, options_, request, params);
  if (!request.user.empty()) ctx.user = request.user;
  if (segments.size() == 1) {
    ctx.level = Level::kDomain;
    ctx.domain_id = segments[0];
  } else if (segments.size() >= 2) {
    ctx.level = Level::kRepository;
    ctx.domain_id = segments[0];
    ctx.repository_id = segments[1];
  }

  auto explicit_op = params.GetOperation();
  if (!explicit_op.ok()) return fail(explicit_op.status());
  if (*explicit_op) op_name = std::string(OperationName(**explicit_op));

  // Resolve the level's resource first: a missing domain or repository is objectNotFound
  // whatever the operation.
  if (ctx.level == Level::kDomain) {
    auto domain = store_.GetDomain(ctx.domain_id);
    if (!domain.ok()) return fail(domain.status());
  }
  if (ctx.level == Level::kRepository) {
    auto repo = store_.GetRepository(ctx.domain_id, ctx.repository_id);
    if (!repo.ok()) return fail(repo.status());
    ctx.repo = *repo;
    auto variant = ParseVariant(ctx.repo->info().variant);
    ctx.variant = variant.ok() ? *variant : Variant::kB;
    ctx.path = JoinPath(segments, 2, segments.size());
    ctx.path_given = segments.size() > 2;
    // ".../{document}/versions" is getAllVersions of that document (CONTRACT §2); a
    // folder may still hold a child named "versions", so only a document path counts.
    if (segments.size() > 2 && segments.back() == "versions" &&
        (!*explicit_op || **explicit_op == Operation::kVersions)) {
      const std::string parent = JoinPath(segments, 2, segments.size() - 1);
      auto doc = ctx.repo->GetObjectByPathShared(parent);
      if (doc.ok() && (*doc)->base == BaseType::kDocument) {
        ctx.path = parent;
        ctx.target_ = std::move(*doc);
        *explicit_op = Operation::kVersions;
        op_name = std::string(OperationName(Operation::kVersions));
      }
    }
  } else {
    auto variant = ParseVariant(options_.default_variant);
    ctx.variant = variant.ok() ? *variant : Variant::kB;
  }

  Operation op;
  if (*explicit_op) {
    op = **explicit_op;
  } else {
    auto def = DefaultOperation(ctx);
    if (!def.ok()) return fail(def.status());
    op = *def;
  }
  op_name = std::string(OperationName(op));
  ctx.op = op;

  const Route* route = FindRoute(op);
  if (route == nullptr) return fail(NotSupported("operation '" + op_name + "' is not supported"));
  if (route->level != ctx.level) {
    return fail(NotSupported("operation '" + op_name + "' is not available at " + std::string(LevelName(ctx.level))));
  }
  const bool is_get = request.method == "GET" || request.method == "HEAD";
  if (IsWrite(op) && is_get) {
    return fail(NotSupported("operation '" + op_name + "' changes data and must be sent with POST"));
  }
  if (IsWrite(op) && options_.read_only) {
    return fail(PermissionDenied("operation '" + op_name + "' refused: the server is read-only (--read-only)"));
  }
  if (options_.strict && ctx.variant == Variant::kB && params.body_encoding() == BodyEncoding::kUrlencoded) {
    return fail(InvalidArgument(
        "application/x-www-form-urlencoded bodies are not accepted in variant B under --strict: use "
        "application/json or multipart/form-data"));
  }
  auto result = route->handler(ctx);
  if (!result.ok()) return fail(result.status());
  Response response = std::move(*result);
  response.operation = op_name;
  return response;
}

}  // namespace folio::api
