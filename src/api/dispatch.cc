// Service::Handle: level, operation and target of a request, then the operation.
#include "api/dispatch.h"

#include "api/ascii.h"
#include "api/auth/authenticator.h"
#include "api/cmis_names.h"
#include "api/error_response.h"
#include "api/ops/operation_table.h"
#include "api/url.h"
#include "repo/acl/accounts.h"
#include "repo/acl/checker.h"
#include "repo/query/query_indexes.h"

namespace folio::api {
namespace {

using ops::Context;
using ops::Level;

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

// The operation a GET without one means (docs/API.md §3.1, §3.2).
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

}  // namespace

Service::Service(Store& store, ServiceOptions options) : store_(&store), options_(std::move(options)) {
  BuildOnStore();
  // Kept across a reset: its cache checks each password against the stored hash.
  auth::AuthenticatorOptions auth;
  auth.admin_password = options_.admin_password;
  auth.hash_threads = options_.hash_threads;
  authenticator_ = std::make_unique<auth::Authenticator>(std::move(auth));
}

Service::~Service() = default;

void Service::BuildOnStore() {
  // In this order: the old query indexes stop their work before the accounts go.
  query_indexes_.reset();
  accounts_ = std::make_unique<acl::AccountRegistry>(*store_, options_.read_only);
  MakeQueryIndexes();
}

void Service::MakeQueryIndexes() {
  query_indexes_ = std::make_unique<query::QueryIndexes>(*store_, options_.log, options_.scratch_dir,
                                                         options_.read_only, &foreground_);
  if (indexing_) query_indexes_->StartBackground();
}

void Service::StartQueryIndexing() {
  std::unique_lock<fixture::StateLock> state(state_mu_);
  indexing_ = true;
  query_indexes_->StartBackground();
}

Result<std::vector<std::string>> Service::AnonymousDomains() {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DomainInfo> domains, store_->ListDomains());
  std::vector<std::string> out;
  for (const DomainInfo& d : domains) {
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<acl::DomainAccounts> accounts, accounts_->For(d.domain_id));
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const acl::Principals> principals, accounts->Current());
    if (!principals->has_users()) out.push_back(d.domain_id);
  }
  return out;
}

std::unique_ptr<UploadSink> Service::OpenUpload(const Request& head) {
  foreground_.Touch();
  std::shared_lock<fixture::StateLock> state(state_mu_);
  const std::vector<std::string>& path = head.path;
  if (path.size() < 2) return uploads_.OpenSink(nullptr);
  // Nobody writes into a repository's uploads who may not use it.
  auto accounts = accounts_->For(path[0]);
  if (!accounts.ok()) return uploads_.OpenSink(nullptr);
  auto principals = (*accounts)->Current();
  if (!principals.ok()) return uploads_.OpenSink(nullptr);
  auto caller = authenticator_->User({head.authorization, head.api_key, head.peer_loopback, head.peer_address}, path[0],
                                     std::move(*principals));
  if (!caller.ok() || !acl::MayUseRepository(*caller, path[1])) return uploads_.OpenSink(nullptr);
  auto repo = store_->GetRepository(path[0], path[1]);
  if (!repo.ok()) return uploads_.OpenSink(nullptr);
  return uploads_.OpenSink(std::move(*repo));
}

void Service::ReleaseUpload(const Request& request) {
  if (request.file && !request.file->spooled_path.empty()) uploads_.Release(request.file->spooled_path);
}

namespace {

// A body made while it is sent, of a state a reset or restore may replace meanwhile:
// it keeps the Store it reads until it is done (its repositories use the Store's Fs),
// and once the state is replaced it stops with an error (the old tree is removed at
// the switch), which cuts the answer short: a client never takes it for whole.
class StoreHeldBody final : public BodyProducer {
 public:
  StoreHeldBody(std::shared_ptr<Store> store, std::shared_ptr<std::atomic<uint64_t>> generation,
                std::unique_ptr<BodyProducer> inner)
      : store_(std::move(store)), generation_(std::move(generation)), made_in_(generation_->load()),
        inner_(std::move(inner)) {}
  ~StoreHeldBody() override { inner_.reset(); }  // its repositories go before their Store
  Result<bool> Next(std::string& out) override {
    if (generation_->load() != made_in_) {
      return StorageError("the data directory was reset or restored while this answer was being sent");
    }
    return inner_->Next(out);
  }

 private:
  std::shared_ptr<Store> store_;
  std::shared_ptr<std::atomic<uint64_t>> generation_;
  uint64_t made_in_;
  std::unique_ptr<BodyProducer> inner_;
};

// A body made as it is sent (a listing of 10,000 children) is work for a request until
// its last part: each part tells the background work to wait (repo/query/foreground.h).
class ForegroundBody final : public BodyProducer {
 public:
  ForegroundBody(query::Foreground& foreground, std::unique_ptr<BodyProducer> inner)
      : foreground_(foreground), inner_(std::move(inner)) {}
  Result<bool> Next(std::string& out) override {
    foreground_.Touch();
    auto more = inner_->Next(out);
    foreground_.Touch();
    return more;
  }

 private:
  query::Foreground& foreground_;
  std::unique_ptr<BodyProducer> inner_;
};

}  // namespace

Response Service::RunHoldingStore(const Request& request) {
  Response response = Run(request);
  if (response.producer && options_.fixture.states) {
    response.producer = std::make_unique<StoreHeldBody>(owned_store_, generation_, std::move(response.producer));
  }
  return response;
}

Response Service::Handle(const Request& request) {
  foreground_.Touch();
  Response response;
  if (!request.path.empty() && request.path[0] == "-") {
    response = HandleFixture(request);
  } else if (!request.fault.empty()) {
    response = RunWithFault(request);
  } else {
    std::shared_lock<fixture::StateLock> state(state_mu_);
    response = RunHoldingStore(request);
  }
  if (response.still_valid) {
    response.still_valid = [valid = std::move(response.still_valid), generation = generation_,
                            made_in = generation_->load()] { return generation->load() == made_in && valid(); };
  }
  ReleaseUpload(request);
  foreground_.Touch();
  if (response.producer) response.producer = std::make_unique<ForegroundBody>(foreground_, std::move(response.producer));
  if (request.from_script) {  // the page signs in with its own form (docs/API.md §11.2)
    std::erase_if(response.headers, [](const auto& h) { return EqualsIgnoreCase(h.first, "WWW-Authenticate"); });
  }
  return response;
}

Response Service::Run(const Request& request) {
  auto params_or = Params::FromRequest(request);
  if (!params_or.ok()) return MakeErrorResponse(params_or.status(), SuppressFromQuery(request));
  const Params& params = *params_or;
  const auto suppress_or = params.GetBool(kParamSuppressResponseCodes, false);
  const bool suppress = suppress_or.ok() && *suppress_or;
  std::string op_name;
  auto fail = [&](const Status& s) {
    Response r = MakeErrorResponse(s, suppress);
    r.operation = op_name;
    return r;
  };

  const std::vector<std::string>& segments = request.path;
  Context ctx(*store_, options_, request, params);
  ctx.uploads = &uploads_;
  ctx.authenticator = authenticator_.get();
  ctx.registry = accounts_.get();
  ctx.query_indexes = query_indexes_.get();
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

  // Who is asking, before anything of the domain is looked up: a client without the
  // right credentials learns nothing but that the domain exists.
  const auth::AuthInput auth_input{request.authorization, request.api_key, request.peer_loopback,
                                   request.peer_address};
  if (ctx.level == Level::kServer) {
    auto caller = authenticator_->ServerAdmin(auth_input);
    if (!caller.ok()) return fail(caller.status());
    ctx.caller = std::move(*caller);
  } else {
    auto accounts = accounts_->For(ctx.domain_id);
    if (!accounts.ok()) {
      // Say what GetRepository would say about a repository URL of a missing domain.
      if (ctx.level == Level::kRepository && accounts.status().kind() == ErrorKind::kObjectNotFound) {
        return fail(store_->GetRepository(ctx.domain_id, ctx.repository_id).status());
      }
      return fail(accounts.status());
    }
    ctx.accounts = std::move(*accounts);
    auto principals = ctx.accounts->Current();
    if (!principals.ok()) return fail(principals.status());
    auto caller = authenticator_->User(auth_input, ctx.domain_id, std::move(*principals));
    if (!caller.ok()) return fail(caller.status());
    ctx.caller = std::move(*caller);
  }
  ctx.user = ctx.caller.user();

  // Resolve the level's resource first: a missing domain or repository is objectNotFound
  // whatever the operation.
  if (ctx.level == Level::kDomain) {
    auto domain = store_->GetDomain(ctx.domain_id);
    if (!domain.ok()) return fail(domain.status());
  }
  if (ctx.level == Level::kRepository) {
    auto repo = store_->GetRepository(ctx.domain_id, ctx.repository_id);
    if (!repo.ok()) return fail(repo.status());
    // The repository gate, before any object is looked up (docs/API.md §11.3).
    if (!acl::MayUseRepository(ctx.caller, ctx.repository_id)) {
      return fail(acl::CheckRepositoryGate(ctx.caller, ctx.repository_id));
    }
    // The operations reach the repository only through the caller's view of it.
    ctx.repo = std::make_shared<acl::GuardedRepository>(*repo, acl::Checker(ctx.caller));
    auto variant = ParseVariant(ctx.repo->info().variant);
    ctx.variant = variant.ok() ? *variant : Variant::kB;
    ctx.path = JoinPath(segments, 2, segments.size());
    ctx.path_given = segments.size() > 2;
    // ".../{document}/versions" is getAllVersions of that document (docs/API.md §3.1); a
    // folder may still hold a child named "versions", so only a document path counts.
    if (segments.size() > 2 && segments.back() == "versions" &&
        (!*explicit_op || **explicit_op == Operation::kVersions)) {
      const std::string parent = JoinPath(segments, 2, segments.size() - 1);
      // Checked when the operation asks for its target (Context::Target).
      auto doc = (*repo)->GetObjectByPathShared(parent);
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

  const ops::OperationRow& row = ops::OperationRowFor(op);
  if (!row.served()) return fail(NotSupported("operation '" + op_name + "' is not supported"));
  if (!row.RunsAt(ctx.level)) {
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
  // A write's answer names the newest change-log token once it is done (docs/API.md
  // §14.3): a test waits until GET /-/events has passed it.
  uint64_t token_before = 0;
  if (IsWrite(op) && ctx.repo) {
    auto t = ctx.repo->LatestChangeToken();
    if (t.ok()) token_before = *t;
  }
  auto result = row.handler(ctx);
  if (!result.ok()) return fail(result.status());
  Response response = std::move(*result);
  response.operation = op_name;
  if (IsWrite(op) && ctx.repo) {
    auto t = ctx.repo->LatestChangeToken();
    if (t.ok() && *t > token_before) {
      response.headers.emplace_back("Folio-Change-Token", ctx.domain_id + "/" + ctx.repository_id + "/" + std::to_string(*t));
    }
  }
  return response;
}

}  // namespace folio::api
