// auth::Authenticator against an in-memory domain: Basic, API keys, the cache, the
// server administrator, and answers that never name the part that was wrong.
#include <doctest/doctest.h>

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
    return AuthInput{headers.back(), "", true};
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
  auto by_key = auth.User(AuthInput{"", w.alice_key, false}, "acme", w.domain);
  REQUIRE(by_key.ok());
  CHECK(by_key->user() == "alice");
  auto wrong = auth.User(AuthInput{"", w.alice_key + "x", false}, "acme", w.domain);
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
  for (const AuthInput& in : {AuthInput{}, AuthInput{"Basic !!", "k", false}}) {
    auto r = auth.User(in, "demo", empty);
    REQUIRE(r.ok());
    CHECK(r->kind() == acl::Caller::Kind::kAnonymousDomain);
    CHECK(r->user() == "anonymous");
  }
}

TEST_CASE("Authenticator: the server administrator without a password is any loopback client") {
  Authenticator auth({});
  CHECK(auth.ServerAdmin(AuthInput{"", "", true}).ok());
  auto remote = auth.ServerAdmin(AuthInput{"", "", false});
  CHECK(remote.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(remote.status().message(), "FOLIO_ADMIN_PASSWORD"));
}

TEST_CASE("Authenticator: the server administrator with a password is Basic admin:password, from anywhere") {
  AuthenticatorOptions o;
  o.admin_password = "root pw";
  Authenticator auth(o);
  World w;
  auto ok = auth.ServerAdmin(AuthInput{BasicHeader("admin", "root pw"), "", false});
  REQUIRE(ok.ok());
  CHECK(ok->kind() == acl::Caller::Kind::kServerAdmin);
  CHECK(auth.ServerAdmin(AuthInput{"", "", true}).status().kind() == ErrorKind::kUnauthorized);
  CHECK(auth.ServerAdmin(AuthInput{BasicHeader("admin", "root"), "", true}).status().kind() ==
        ErrorKind::kUnauthorized);
  CHECK(auth.ServerAdmin(AuthInput{BasicHeader("root", "root pw"), "", true}).status().kind() ==
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
