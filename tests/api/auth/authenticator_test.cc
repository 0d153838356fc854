// auth::Authenticator against an in-memory domain: Basic, API keys, the cache, the
// server administrator, and answers that never name the part that was wrong.
#include <doctest/doctest.h>

#include <chrono>
#include <deque>
#include <memory>

#include "api/auth/authenticator.h"
#include "repo/acl/secrets.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::api::auth;
using folio::testing::Contains;

namespace {

std::string BasicHeader(const std::string& user, const std::string& password) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string in = user + ":" + password;
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t n = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[n & 63] : '=';
  }
  return "Basic " + out;
}

struct World {
  World() {
    acl::UserRecord alice;
    alice.id = "alice";
    alice.password_hash = acl::HashPassword("wonderland").value();
    alice.api_key_hash = acl::HashApiKey(alice_key);
    acl::UserRecord bob;
    bob.id = "bob";
    bob.password_hash = acl::HashPassword("builder").value();
    domain = std::make_shared<const acl::Principals>(std::vector<acl::UserRecord>{alice, bob},
                                                     std::vector<acl::GroupRecord>{{"admin", {"alice"}}});
  }
  AuthInput Basic(const std::string& user, const std::string& password) {
    headers.push_back(BasicHeader(user, password));  // AuthInput holds views
    return AuthInput{headers.back(), "", true, ""};
  }
  std::deque<std::string> headers;
  const std::string alice_key = acl::NewApiKey();
  std::shared_ptr<const acl::Principals> domain;
};

}  // namespace

TEST_CASE("Authenticator: a right password gives the user, cached for the next request") {
  World w;
  Authenticator auth({});
  auto first = auth.User(w.Basic("alice", "wonderland"), "acme", w.domain);
  REQUIRE(first.ok());
  CHECK(first->user() == "alice");
  CHECK(first->domain_admin());
  CHECK(auth.cache().size() == 1);
  auto second = auth.User(w.Basic("alice", "wonderland"), "acme", w.domain);
  REQUIRE(second.ok());
  CHECK(second->user() == "alice");
  CHECK(auth.cache().size() == 1);
  // The same user and password in another domain is another entry (and another user).
  CHECK(CredentialCache::Key("acme", "alice", "wonderland") != CredentialCache::Key("beta", "alice", "wonderland"));
}

TEST_CASE("Authenticator: wrong password, unknown user and missing credentials are unauthorized alike") {
  World w;
  Authenticator auth({});
  for (const AuthInput& in : {w.Basic("alice", "Wonderland"), w.Basic("nobody", "wonderland"), w.Basic("bob", "")}) {
    auto r = auth.User(in, "acme", w.domain);
    CHECK(r.status().kind() == ErrorKind::kUnauthorized);
    CHECK(r.status().message() == "wrong user name, password or API key for domain 'acme'");
  }
  auto none = auth.User(AuthInput{}, "acme", w.domain);
  CHECK(none.status().kind() == ErrorKind::kUnauthorized);
  CHECK(Contains(none.status().message(), "needs authentication"));
  CHECK(auth.cache().size() == 0);
}

TEST_CASE("Authenticator: a changed password takes effect at once, though the old one was cached") {
  World w;
  Authenticator auth({});
  REQUIRE(auth.User(w.Basic("bob", "builder"), "acme", w.domain).ok());
  acl::UserRecord bob = *w.domain->FindUser("bob");
  bob.password_hash = acl::HashPassword("new one").value();
  auto changed = std::make_shared<const acl::Principals>(std::vector<acl::UserRecord>{*w.domain->FindUser("alice"), bob},
                                                         std::vector<acl::GroupRecord>{{"admin", {"alice"}}});
  CHECK(auth.User(w.Basic("bob", "builder"), "acme", changed).status().kind() == ErrorKind::kUnauthorized);
  CHECK(auth.User(w.Basic("bob", "new one"), "acme", changed).ok());
  // Deleted: gone at once too.
  auto without_bob = std::make_shared<const acl::Principals>(
      std::vector<acl::UserRecord>{*w.domain->FindUser("alice")}, std::vector<acl::GroupRecord>{});
  CHECK(auth.User(w.Basic("bob", "new one"), "acme", without_bob).status().kind() == ErrorKind::kUnauthorized);
}

TEST_CASE("Authenticator: API keys, alone or with Basic credentials of the same user") {
  World w;
  Authenticator auth({});
  auto by_key = auth.User(AuthInput{"", w.alice_key, false, ""}, "acme", w.domain);
  REQUIRE(by_key.ok());
  CHECK(by_key->user() == "alice");
  auto wrong = auth.User(AuthInput{"", w.alice_key + "x", false, ""}, "acme", w.domain);
  CHECK(wrong.status().kind() == ErrorKind::kUnauthorized);
  CHECK_FALSE(Contains(wrong.status().message(), w.alice_key));
  AuthInput both = w.Basic("alice", "wonderland");
  both.api_key = w.alice_key;
  CHECK(auth.User(both, "acme", w.domain).ok());
  AuthInput mixed = w.Basic("bob", "builder");
  mixed.api_key = w.alice_key;
  auto m = auth.User(mixed, "acme", w.domain);
  CHECK(m.status().kind() == ErrorKind::kUnauthorized);
  CHECK(Contains(m.status().message(), "different users"));
}

TEST_CASE("Authenticator: a domain without users lets anyone in, whatever is sent") {
  Authenticator auth({});
  auto empty = std::make_shared<const acl::Principals>();
  for (const AuthInput& in : {AuthInput{}, AuthInput{"Basic !!", "k", false, ""}}) {
    auto r = auth.User(in, "demo", empty);
    REQUIRE(r.ok());
    CHECK(r->kind() == acl::Caller::Kind::kAnonymousDomain);
    CHECK(r->user() == "anonymous");
  }
}

TEST_CASE("Authenticator: the server administrator without a password is any loopback client") {
  Authenticator auth({});
  CHECK(auth.ServerAdmin(AuthInput{"", "", true, ""}).ok());
  auto remote = auth.ServerAdmin(AuthInput{"", "", false, ""});
  CHECK(remote.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(remote.status().message(), "FOLIO_ADMIN_PASSWORD"));
}

TEST_CASE("Authenticator: the server administrator with a password is Basic admin:password, from anywhere") {
  AuthenticatorOptions o;
  o.admin_password = "root pw";
  Authenticator auth(o);
  World w;
  auto ok = auth.ServerAdmin(AuthInput{BasicHeader("admin", "root pw"), "", false, ""});
  REQUIRE(ok.ok());
  CHECK(ok->kind() == acl::Caller::Kind::kServerAdmin);
  CHECK(auth.ServerAdmin(AuthInput{"", "", true, ""}).status().kind() == ErrorKind::kUnauthorized);
  CHECK(auth.ServerAdmin(AuthInput{BasicHeader("admin", "root"), "", true, ""}).status().kind() ==
        ErrorKind::kUnauthorized);
  CHECK(auth.ServerAdmin(AuthInput{BasicHeader("root", "root pw"), "", true, ""}).status().kind() ==
        ErrorKind::kUnauthorized);
  // A domain user is no server administrator.
  CHECK(auth.ServerAdmin(w.Basic("alice", "wonderland")).status().kind() == ErrorKind::kUnauthorized);
}

TEST_CASE("Authenticator: passwords are hashed on the pool") {
  Authenticator auth({});
  auto h = auth.HashPassword("pw");
  REQUIRE(h.ok());
  CHECK(acl::VerifyPassword(*h, "pw"));
}

namespace {

AuthInput From(std::deque<std::string>& headers, const std::string& user, const std::string& password,
               std::string_view address) {
  headers.push_back(BasicHeader(user, password));
  return AuthInput{headers.back(), "", false, address};
}

}  // namespace

TEST_CASE("Authenticator: failures are slowed down per user and client address; a right password never waits") {
  World w;
  AuthenticatorOptions o;
  o.throttle.free_failures = 2;
  // Longer than an argon2id check on a loaded machine, so that a delay is told apart.
  o.throttle.base_delay = std::chrono::milliseconds(1500);
  o.throttle.max_delay = std::chrono::milliseconds(1500);
  Authenticator auth(o);
  using Clock = std::chrono::steady_clock;
  const auto took = [&](const AuthInput& in) {
    const Clock::time_point start = Clock::now();
    auto r = auth.User(in, "acme", w.domain);
    return std::make_pair(r.ok(), Clock::now() - start);
  };
  // alice has logged in from 10.0.0.1: her password is remembered.
  REQUIRE(took(From(w.headers, "alice", "wonderland", "10.0.0.1")).first);
  // Someone guesses from 10.0.0.9 until each guess waits.
  for (int i = 0; i < 3; ++i) CHECK_FALSE(took(From(w.headers, "alice", "guess", "10.0.0.9")).first);
  CHECK(auth.throttle().Slowed(ThrottleKey("acme", "alice", "10.0.0.9")));
  auto slowed = took(From(w.headers, "alice", "guess", "10.0.0.9"));
  CHECK_FALSE(slowed.first);
  CHECK(slowed.second >= std::chrono::milliseconds(1500));
  // Neither another address (a first failure is answered after its check only) ...
  CHECK_FALSE(auth.throttle().Slowed(ThrottleKey("acme", "alice", "10.0.0.2")));
  auto other = took(From(w.headers, "alice", "typo", "10.0.0.2"));
  CHECK_FALSE(other.first);
  CHECK(other.second < std::chrono::milliseconds(1500));
  // ... nor the right password from the guesser's own address waits for the guesses.
  auto right = took(From(w.headers, "alice", "wonderland", "10.0.0.9"));
  CHECK(right.first);
  CHECK(right.second < std::chrono::milliseconds(100));
  // The right password did not give the guesser fresh attempts.
  CHECK(auth.throttle().Slowed(ThrottleKey("acme", "alice", "10.0.0.9")));
  // The server administrator's failures, too, are the guesser's address's only.
  AuthenticatorOptions ao = o;
  ao.admin_password = "root pw";
  Authenticator admin(ao);
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(admin.ServerAdmin(From(w.headers, "admin", "guess", "10.0.0.9")).ok());
  }
  const Clock::time_point start = Clock::now();
  CHECK(admin.ServerAdmin(From(w.headers, "admin", "root pw", "10.0.0.9")).ok());
  CHECK(Clock::now() - start < std::chrono::milliseconds(100));
}
