// auth::ParseCredentials, DecodeBase64, IsLoopbackAddress.
#include <doctest/doctest.h>

#include "api/auth/credentials.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::api::auth;
using folio::testing::Contains;

TEST_CASE("Credentials: HTTP Basic in any case of the scheme; the password is all after the first colon") {
  auto c = ParseCredentials("Basic YWxpY2U6czNjcjN0", "");  // alice:s3cr3t
  REQUIRE(c.ok());
  REQUIRE(c->basic);
  CHECK(c->basic->user == "alice");
  CHECK(c->basic->password == "s3cr3t");
  CHECK(c->api_key.empty());
  auto colon = ParseCredentials("  bAsIc   Ym9iOmE6Yjpj  ", "");  // bob:a:b:c
  REQUIRE(colon.ok());
  CHECK(colon->basic->password == "a:b:c");
  auto empty_pw = ParseCredentials("Basic Ym9iOg==", "");  // bob:
  REQUIRE(empty_pw.ok());
  CHECK(empty_pw->basic->password.empty());
}

TEST_CASE("Credentials: an API key alone, both, or none") {
  auto key = ParseCredentials("", " folio_abc ");
  REQUIRE(key.ok());
  CHECK_FALSE(key->basic);
  CHECK(key->api_key == "folio_abc");
  auto none = ParseCredentials("", "");
  REQUIRE(none.ok());
  CHECK(none->empty());
  auto both = ParseCredentials("Basic YWxpY2U6czNjcjN0", "k");
  REQUIRE(both.ok());
  CHECK(both->basic);
  CHECK(both->api_key == "k");
}

TEST_CASE("Credentials: other schemes and malformed Basic values are unauthorized, secrets never quoted") {
  auto bearer = ParseCredentials("Bearer abc.def", "");
  CHECK(bearer.status().kind() == ErrorKind::kUnauthorized);
  CHECK(Contains(bearer.status().message(), "'Bearer'"));
  for (std::string bad : {"Basic", "Basic !!!!", "Basic YWxpY2U=", "Basic OnB3", "Basic YWxpY2U6czNjcjN0x"}) {
    CAPTURE(bad);
    auto r = ParseCredentials(bad, "");
    CHECK(r.status().kind() == ErrorKind::kUnauthorized);
    CHECK(Contains(r.status().message(), "malformed Basic credentials"));
    CHECK_FALSE(Contains(r.status().message(), "YWxp"));
  }
}

TEST_CASE("Credentials: base64 with and without padding") {
  CHECK(DecodeBase64("aGVsbG8=") == "hello");
  CHECK(DecodeBase64("aGVsbG8") == "hello");
  CHECK(DecodeBase64("") == "");
  CHECK(DecodeBase64("a") == std::nullopt);
  CHECK(DecodeBase64("a-b_") == std::nullopt);
}

TEST_CASE("Credentials: loopback addresses") {
  for (std::string yes : {"127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1", "localhost", "LOCALHOST"}) {
    CAPTURE(yes);
    CHECK(IsLoopbackAddress(yes));
  }
  for (std::string no : {"0.0.0.0", "10.0.0.1", "192.168.1.10", "::", "", "127.0.0", "127.0.0.1.5", "127.a.0.1",
                         "::ffff:10.0.0.1", "example.com", "1270.0.0.1"}) {
    CAPTURE(no);
    CHECK_FALSE(IsLoopbackAddress(no));
  }
}
