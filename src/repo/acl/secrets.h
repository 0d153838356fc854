// Passwords and API keys (libsodium): passwords are stored only as argon2id hashes
// (salted, slow by design), API keys (32 random bytes, full entropy) only as a fast
// BLAKE2b hash. Nothing here logs, and nothing keeps a clear secret.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "folio/status.h"

namespace folio::acl {

// Longest password accepted, in bytes (bounds the work one request can ask for).
inline constexpr size_t kMaxPasswordBytes = 1024;

// Checks a new password given as parameter `name`: 1 to kMaxPasswordBytes bytes, no
// NUL. Errors: kInvalidArgument naming `name` (never quoting the password).
Status CheckPassword(std::string_view password, std::string_view name = "password");

// An argon2id hash of `password` in the PHC string form crypto_pwhash_str writes
// ("$argon2id$v=19$m=19456,t=2,p=1$salt$hash"; 19 MiB and 2 passes, about 30 ms).
// Slow: run it off the request threads (api/auth/hash_pool.h). Thread-safe.
// Errors: kRuntime if libsodium fails (out of memory).
Result<std::string> HashPassword(std::string_view password);
// True when `password` matches `hash` (HashPassword's form; the parameters are read
// from the hash). As slow as HashPassword. False for a malformed hash. Thread-safe.
bool VerifyPassword(std::string_view hash, std::string_view password);
// True when `text` has the form of an argon2id hash string.
bool IsPasswordHash(std::string_view text);

// A new API key: "folio_" + 43 characters of URL-safe base64 (32 random bytes).
std::string NewApiKey();
// The stored form of an API key: "blake2b:" + 64 hex digits (BLAKE2b-256). Fast;
// enough because a key has full entropy.
std::string HashApiKey(std::string_view key);
// True when `text` has the form HashApiKey returns.
bool IsApiKeyHash(std::string_view text);

// A keyed 128-bit digest (SipHash-2-4, libsodium's siphashx24) of `parts`, each
// length-prefixed so that ("ab","c") and ("a","bc") differ, under a random key made
// once per process: for in-memory cache keys derived from secrets, fast (it runs on
// every authenticated request) and useless outside this process.
std::string ProcessDigest(std::initializer_list<std::string_view> parts);

// Compares in time that depends only on the lengths.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace folio::acl
