// Who a request comes from (docs/API.md §11.2): the server administrator
// at the server URL; at a domain URL and below, a user of that domain by HTTP Basic or
// X-API-KEY, or anyone when the domain has no users. Passwords are verified on the
// HashPool (argon2id is slow by design), remembered in the CredentialCache so that
// later requests skip the hash, and failures are slowed down per user and client
// address (Throttle); a remembered password never waits for them.
//
// The interface is asynchronous: `done` is called exactly once, on the calling thread
// when nothing needs hashing (a cached password, an API key, a domain without users,
// missing credentials), otherwise on a pool thread. The synchronous wrappers wait for
// it; the HTTP layer calls those today, telling the server through the wait hooks of
// storage/wait_hooks.h while it waits (a server that answers asynchronously, parking
// the connection until UserAsync calls back, needs none). The server also puts the
// request head's `Authorization`, `X-API-KEY` and whether the peer is loopback in
// api::Request, and calls Service::OpenUpload with that head (so that a refused
// caller's upload is discarded).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/auth/credential_cache.h"
#include "api/auth/credentials.h"
#include "api/auth/hash_pool.h"
#include "api/auth/throttle.h"
#include "folio/status.h"
#include "repo/acl/caller.h"
#include "repo/acl/principals.h"

namespace folio::api::auth {

// What a request offers: the header values as sent ("" when absent; they must outlive
// the call, not the callback), whether the client connects from a loopback address,
// and that address (failures are slowed down per user and address; "" is one address).
struct AuthInput {
  std::string_view authorization;
  std::string_view api_key;
  bool loopback = false;
  std::string_view client_address;
};

struct AuthenticatorOptions {
  // The server administrator's password (FOLIO_ADMIN_PASSWORD); nullopt: server-level
  // operations are allowed from loopback clients only.
  std::optional<std::string> admin_password;
  size_t hash_threads = 0;         // 0: half the cores, at least 1, at most 4
  size_t max_hash_jobs = 4096;     // waiting checks beyond this are refused at once
  size_t cache_entries = 10000;    // verified (domain, user, password) remembered
  ThrottleOptions throttle;
};

class Authenticator {
 public:
  using Done = std::function<void(Result<acl::Caller>)>;

  explicit Authenticator(AuthenticatorOptions options);
  ~Authenticator();  // answers the checks still waiting, then stops the pool

  // The server administrator: with a password set, Basic "admin" and that password
  // (compared in constant time, failures slowed down); without one, any loopback
  // client. Errors: kUnauthorized for missing or wrong credentials (password set);
  // kPermissionDenied for a client that is not on loopback (no password set).
  void ServerAdminAsync(const AuthInput& input, Done done);
  Result<acl::Caller> ServerAdmin(const AuthInput& input);

  // A user of `domain_id`, whose users and groups are `principals`: Caller::User; or
  // Caller::AnonymousDomain when the domain has no users (credentials are then not
  // looked at). With both Basic and X-API-KEY, both must be right and name one user.
  // Errors: kUnauthorized for missing, malformed or wrong credentials, an unknown key,
  // or too many failures in a row for that user (the message never says which part
  // was wrong, nor quotes a secret).
  void UserAsync(const AuthInput& input, std::string_view domain_id, std::shared_ptr<const acl::Principals> principals,
                 Done done);
  Result<acl::Caller> User(const AuthInput& input, std::string_view domain_id,
                           std::shared_ptr<const acl::Principals> principals);

  // An argon2id hash of a new password, made on the pool (createUser, updateUser).
  // Errors: kRuntime (libsodium failed, or the pool is full).
  void HashPasswordAsync(std::string password, std::function<void(Result<std::string>)> done);
  Result<std::string> HashPassword(std::string password);

  CredentialCache& cache() { return cache_; }
  Throttle& throttle() { return throttle_; }

 private:
  // What is left to check off the calling thread.
  struct SlowCheck {
    bool wrong_key = false;  // an X-API-KEY that is no user's
    std::string key;         // CredentialCache::Key of `basic`
    std::string address;     // the client's (the throttle's key holds it)
    BasicCredentials basic;
  };
  // The answer, when it is known at once: a domain without users, missing or malformed
  // credentials, a right API key, a remembered password (even while failures of that
  // user are being slowed down). Otherwise nullopt, with `slow` saying what remains.
  std::optional<Result<acl::Caller>> Decide(const AuthInput& input, std::string_view domain_id,
                                            const std::shared_ptr<const acl::Principals>& principals, SlowCheck& slow);
  // Checks `slow` through the throttle, on the pool.
  void Slow(std::string_view domain_id, SlowCheck slow, std::shared_ptr<const acl::Principals> principals, Done done);

  // Runs `check` for `who` through the throttle; a refused check answers `done` with
  // "too many failures".
  void Throttled(const std::string& who, std::function<Throttle::Outcome(Done&)> check, Done done);

  const std::optional<std::string> admin_digest_;  // ProcessDigest of the admin password
  CredentialCache cache_;
  std::unique_ptr<HashPool> pool_;  // reset first by the destructor: its last jobs use throttle_
  Throttle throttle_;
};

}  // namespace folio::api::auth
