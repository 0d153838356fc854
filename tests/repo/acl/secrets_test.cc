// acl secrets: argon2id password hashes, API keys and their hashes, digests.
#include <doctest/doctest.h>

#include <set>

#include "repo/acl/secrets.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::acl;
using folio::testing::Contains;

TEST_CASE("Secrets: a password hash is argon2id, salted, and verifies only its password") {
  auto a = HashPassword("correct horse");
  auto b = HashPassword("correct horse");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
  CHECK(*a != *b);  // a fresh salt each time
  CHECK_FALSE(Contains(*a, "correct horse"));
  CHECK(IsPasswordHash(*a));
  CHECK(VerifyPassword(*a, "correct horse"));
  CHECK(VerifyPassword(*b, "correct horse"));
  CHECK_FALSE(VerifyPassword(*a, "correct horsE"));
  CHECK_FALSE(VerifyPassword(*a, ""));
  CHECK_FALSE(VerifyPassword("not a hash", "correct horse"));
  CHECK_FALSE(VerifyPassword("", ""));
  CHECK_FALSE(IsPasswordHash("$2y$10$bcrypt"));
}

TEST_CASE("Secrets: new passwords are checked without being quoted") {
  CHECK(CheckPassword("pw").ok());
  Status empty = CheckPassword("", "adminPassword");
  CHECK(empty.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(empty.message(), "'adminPassword'"));
  Status long_one = CheckPassword(std::string(kMaxPasswordBytes + 1, 'x'));
  CHECK(long_one.kind() == ErrorKind::kInvalidArgument);
  CHECK_FALSE(Contains(long_one.message(), "xxxx"));
  CHECK(CheckPassword(std::string("a\0b", 3)).kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("Secrets: API keys are random, URL-safe, and stored as a BLAKE2b hash") {
  std::set<std::string> keys;
  for (int i = 0; i < 20; ++i) keys.insert(NewApiKey());
  CHECK(keys.size() == 20);
  const std::string key = *keys.begin();
  CHECK(key.starts_with("folio_"));
  CHECK(key.size() == 6 + 43);
  CHECK(key.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", 6) ==
        std::string::npos);
  const std::string hash = HashApiKey(key);
  CHECK(hash.starts_with("blake2b:"));
  CHECK(IsApiKeyHash(hash));
  CHECK(HashApiKey(key) == hash);
  CHECK(HashApiKey(key + "x") != hash);
  CHECK_FALSE(Contains(hash, key.substr(6)));
  CHECK_FALSE(IsApiKeyHash("blake2b:XYZ"));
  CHECK_FALSE(IsApiKeyHash(key));
}

TEST_CASE("Secrets: process digests separate their parts; constant-time equality") {
  CHECK(ProcessDigest({"ab", "c"}) != ProcessDigest({"a", "bc"}));
  CHECK(ProcessDigest({"ab", "c"}) == ProcessDigest({"ab", "c"}));
  CHECK(ProcessDigest({"x"}).size() == 16);
  const std::string long_part(2000, 'p');  // longer than the stack buffer
  CHECK(ProcessDigest({long_part, "u"}) != ProcessDigest({long_part, "v"}));
  CHECK(ProcessDigest({long_part}) == ProcessDigest({long_part}));
  CHECK(ConstantTimeEquals("abc", "abc"));
  CHECK_FALSE(ConstantTimeEquals("abc", "abd"));
  CHECK_FALSE(ConstantTimeEquals("abc", "abcd"));
  CHECK(ConstantTimeEquals("", ""));
}
