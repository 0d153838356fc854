// Authentication of requests; see authenticator.h.
#include "api/auth/authenticator.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "repo/acl/secrets.h"
#include "storage/wait_hooks.h"

namespace folio::api::auth {
namespace {

using Outcome = Throttle::Outcome;

Status Unauthorized(std::string message) { return Status(ErrorKind::kUnauthorized, std::move(message)); }

size_t DefaultHashThreads() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<size_t>(cores / 2, 1, 4);
}

// A hash to verify against when the user does not exist, so that an unknown user
// takes as long to refuse as a wrong password (no user enumeration by timing).
const std::string& DummyHash() {
  static const std::string kHash = [] {
    auto hash = acl::HashPassword("folio: no such user");
    return hash.ok() ? *hash : std::string();  // out of memory: VerifyPassword is then quick
  }();
  return kHash;
}

Status WrongCredentials(std::string_view domain) {
  return Unauthorized("wrong user name, password or API key for domain '" + std::string(domain) + "'");
}

// Runs `start` and waits for the result it calls back with: no waiting at all when it
// calls back at once (the common case: a remembered password); otherwise the server is
// told (storage/wait_hooks.h) while this thread waits.
template <typename T>
Result<T> Wait(const std::function<void(std::function<void(Result<T>)>)>& start) {
  std::mutex mu;
  std::condition_variable cv;
  std::optional<Result<T>> result;
  start([&](Result<T> r) {
    // Notified under the lock: once it is released the waiter may return and these
    // locals are gone, and this callback touches nothing after.
    std::lock_guard<std::mutex> g(mu);
    result.emplace(std::move(r));
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  if (!result) {
    lock.unlock();
    const storage::ScopedWait waiting;
    lock.lock();
    cv.wait(lock, [&] { return result.has_value(); });
  }
  return std::move(*result);
}

}  // namespace

Authenticator::Authenticator(AuthenticatorOptions options)
    : admin_digest_(options.admin_password ? std::optional<std::string>(acl::ProcessDigest({*options.admin_password}))
                                           : std::nullopt),
      cache_(options.cache_entries),
      pool_(std::make_unique<HashPool>(options.hash_threads ? options.hash_threads : DefaultHashThreads(),
                                       options.max_hash_jobs)),
      throttle_(*pool_, options.throttle) {}

Authenticator::~Authenticator() { pool_.reset(); }

void Authenticator::Throttled(const std::string& who, std::function<Outcome(Done&)> check, Done done) {
  auto shared = std::make_shared<Done>(std::move(done));
  throttle_.Submit(
      who, [check = std::move(check), shared] { return check(*shared); },
      [shared] {
        (*shared)(Unauthorized("too many failed logins for this user: try again later"));
      });
}

void Authenticator::ServerAdminAsync(const AuthInput& input, Done done) {
  if (!admin_digest_) {
    if (input.loopback) return done(acl::Caller::ServerAdmin());
    return done(PermissionDenied(
        "server-level operations are allowed only from loopback clients while FOLIO_ADMIN_PASSWORD is not set"));
  }
  auto credentials = ParseCredentials(input.authorization, "");
  if (!credentials.ok()) return done(credentials.status());
  if (!credentials->basic) {
    return done(Unauthorized("the server URL needs the server administrator: HTTP Basic credentials of user 'admin'"));
  }
  // The comparison is fast, but guessing must not be: failures go through the throttle.
  const bool right = credentials->basic->user == acl::kAdminGroup &&
                     acl::ConstantTimeEquals(acl::ProcessDigest({credentials->basic->password}), *admin_digest_);
  // A right password is never held back by others' failures (docs/API.md §11.2).
  if (right) return done(acl::Caller::ServerAdmin());
  Throttled(
      ThrottleKey("", "admin", input.client_address),
      [right](Done& answer) {
        if (!right) {
          answer(Unauthorized("wrong user name or password for the server administrator"));
          return Outcome::kFailed;
        }
        answer(acl::Caller::ServerAdmin());
        return Outcome::kVerified;
      },
      std::move(done));
}

Result<acl::Caller> Authenticator::ServerAdmin(const AuthInput& input) {
  return Wait<acl::Caller>([&](Done done) { ServerAdminAsync(input, std::move(done)); });
}

std::optional<Result<acl::Caller>> Authenticator::Decide(const AuthInput& input, std::string_view domain_id,
                                                        const std::shared_ptr<const acl::Principals>& principals,
                                                        SlowCheck& slow) {
  if (!principals || !principals->has_users()) return Result<acl::Caller>(acl::Caller::AnonymousDomain());
  auto credentials = ParseCredentials(input.authorization, input.api_key);
  if (!credentials.ok()) return Result<acl::Caller>(credentials.status());
  if (credentials->empty()) {
    return Result<acl::Caller>(Unauthorized("domain '" + std::string(domain_id) +
                                            "' needs authentication: HTTP Basic credentials or an X-API-KEY header"));
  }
  slow.address = std::string(input.client_address);
  if (!credentials->api_key.empty()) {
    const acl::UserRecord* user = principals->FindByApiKeyHash(acl::HashApiKey(credentials->api_key));
    if (user == nullptr) {
      slow.wrong_key = true;
      return std::nullopt;
    }
    if (!credentials->basic) return Result<acl::Caller>(acl::Caller::User(principals, user->id));
    if (credentials->basic->user != user->id) {
      return Result<acl::Caller>(Unauthorized("the Basic credentials and the X-API-KEY name different users"));
    }
  }
  BasicCredentials& basic = *credentials->basic;
  slow.key = CredentialCache::Key(domain_id, basic.user, basic.password);
  const acl::UserRecord* user = principals->FindUser(basic.user);
  // A remembered password is let in at once, even while failures from the same
  // address are being slowed down: others' guessing never holds a right password back.
  if (user != nullptr && cache_.Verified(slow.key, user->id, user->password_hash)) {
    return Result<acl::Caller>(acl::Caller::User(principals, user->id));
  }
  slow.basic = std::move(basic);
  return std::nullopt;
}

void Authenticator::Slow(std::string_view domain_id, SlowCheck slow, std::shared_ptr<const acl::Principals> principals,
                         Done done) {
  if (slow.wrong_key) {
    // No user to slow down: wrong keys of a domain share one bucket (a right key never
    // waits: it is found at once).
    Throttled(
        ThrottleKey(domain_id, "\x01X-API-KEY", slow.address),
        [domain = std::string(domain_id)](Done& answer) {
          answer(WrongCredentials(domain));
          return Outcome::kFailed;
        },
        std::move(done));
    return;
  }
  // The password is checked on the pool. The clear password lives only in this job.
  Throttled(
      ThrottleKey(domain_id, slow.basic.user, slow.address),
      [this, key = std::move(slow.key), domain = std::string(domain_id), user_id = slow.basic.user,
       password = std::move(slow.basic.password), principals = std::move(principals)](Done& answer) mutable {
        const acl::UserRecord* u = principals->FindUser(user_id);
        Outcome outcome = Outcome::kFailed;
        if (u != nullptr && cache_.Verified(key, u->id, u->password_hash)) {
          outcome = Outcome::kRemembered;  // verified meanwhile (a burst of one user's first requests)
        } else if (u != nullptr && acl::VerifyPassword(u->password_hash, password)) {
          cache_.Remember(key, u->id, u->password_hash);
          outcome = Outcome::kVerified;
        } else if (u == nullptr) {
          (void)acl::VerifyPassword(DummyHash(), password);
        }
        std::fill(password.begin(), password.end(), '\0');
        if (outcome == Outcome::kFailed) {
          answer(WrongCredentials(domain));
        } else {
          answer(acl::Caller::User(std::move(principals), user_id));
        }
        return outcome;
      },
      std::move(done));
}

void Authenticator::UserAsync(const AuthInput& input, std::string_view domain_id,
                              std::shared_ptr<const acl::Principals> principals, Done done) {
  SlowCheck slow;
  if (auto now = Decide(input, domain_id, principals, slow)) return done(std::move(*now));
  Slow(domain_id, std::move(slow), std::move(principals), std::move(done));
}

Result<acl::Caller> Authenticator::User(const AuthInput& input, std::string_view domain_id,
                                        std::shared_ptr<const acl::Principals> principals) {
  // Without a std::function or a wait when the answer is known at once (the common case).
  SlowCheck slow;
  if (auto now = Decide(input, domain_id, principals, slow)) return std::move(*now);
  return Wait<acl::Caller>(
      [&](Done done) { Slow(domain_id, std::move(slow), std::move(principals), std::move(done)); });
}

void Authenticator::HashPasswordAsync(std::string password, std::function<void(Result<std::string>)> done) {
  auto shared = std::make_shared<std::function<void(Result<std::string>)>>(std::move(done));
  const bool queued = pool_->Run([password = std::move(password), shared]() mutable {
    Result<std::string> hash = acl::HashPassword(password);
    std::fill(password.begin(), password.end(), '\0');
    (*shared)(std::move(hash));
  });
  if (!queued) (*shared)(RuntimeError("the server is busy hashing passwords: try again later"));
}

Result<std::string> Authenticator::HashPassword(std::string password) {
  return Wait<std::string>(
      [&](std::function<void(Result<std::string>)> done) { HashPasswordAsync(std::move(password), std::move(done)); });
}

}  // namespace folio::api::auth
