// libsodium behind secrets.h.
#include "repo/acl/secrets.h"

#include <sodium.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace folio::acl {
namespace {

// OWASP's minimum for argon2id (m = 19 MiB, t = 2, p = 1): about 30 ms on one core,
// and a bounded 19 MiB per hash in flight, so that the server's memory stays small.
constexpr unsigned long long kOpsLimit = 2;
constexpr size_t kMemLimit = 19u * 1024 * 1024;
constexpr std::string_view kApiKeyPrefix = "folio_";
constexpr std::string_view kApiKeyHashPrefix = "blake2b:";

void EnsureInit() {
  static std::once_flag once;
  // sodium_init fails only when no randomness source can be opened (no /dev/urandom,
  // no getrandom): salts and keys made then would not be secret.
  std::call_once(once, [] {
    if (sodium_init() < 0) std::abort();  // no randomness source: no safe secret can be made
  });
}

std::string Hex(const unsigned char* bytes, size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

}  // namespace

Status CheckPassword(std::string_view password, std::string_view name) {
  const std::string param = "parameter '" + std::string(name) + "'";
  if (password.empty()) return InvalidArgument(param + " must not be empty");
  if (password.size() > kMaxPasswordBytes) {
    return InvalidArgument(param + " is longer than " + std::to_string(kMaxPasswordBytes) + " bytes");
  }
  if (password.find('\0') != std::string_view::npos) return InvalidArgument(param + " must not contain a NUL character");
  return OkStatus();
}

Result<std::string> HashPassword(std::string_view password) {
  EnsureInit();
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), kOpsLimit, kMemLimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return RuntimeError("cannot hash a password (out of memory)");
  }
  return std::string(out.data());
}

bool VerifyPassword(std::string_view hash, std::string_view password) {
  EnsureInit();
  if (!IsPasswordHash(hash)) return false;
  const std::string terminated(hash);  // libsodium reads a NUL-terminated string
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

bool IsPasswordHash(std::string_view text) {
  return text.starts_with("$argon2id$") && text.size() < crypto_pwhash_STRBYTES &&
         text.find('\0') == std::string_view::npos;
}

std::string NewApiKey() {
  EnsureInit();
  std::array<unsigned char, 32> raw{};
  randombytes_buf(raw.data(), raw.size());
  std::array<char, sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING)> text{};
  sodium_bin2base64(text.data(), text.size(), raw.data(), raw.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(raw.data(), raw.size());
  return std::string(kApiKeyPrefix) + text.data();
}

std::string HashApiKey(std::string_view key) {
  EnsureInit();
  std::array<unsigned char, 32> digest{};
  crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const unsigned char*>(key.data()), key.size(),
                     nullptr, 0);
  return std::string(kApiKeyHashPrefix) + Hex(digest.data(), digest.size());
}

bool IsApiKeyHash(std::string_view text) {
  if (!text.starts_with(kApiKeyHashPrefix) || text.size() != kApiKeyHashPrefix.size() + 64) return false;
  for (char c : text.substr(kApiKeyHashPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string ProcessDigest(std::initializer_list<std::string_view> parts) {
  EnsureInit();
  static const std::array<unsigned char, crypto_shorthash_siphashx24_KEYBYTES> kKey = [] {
    std::array<unsigned char, crypto_shorthash_siphashx24_KEYBYTES> k{};
    randombytes_buf(k.data(), k.size());
    return k;
  }();
  // The parts, each after its length, in one buffer (on the stack when small: this runs
  // for every authenticated request).
  size_t total = 0;
  for (std::string_view part : parts) total += sizeof(uint64_t) + part.size();
  std::array<unsigned char, 512> small;
  std::string large;
  unsigned char* buffer = small.data();
  if (total > small.size()) {
    large.resize(total);
    buffer = reinterpret_cast<unsigned char*>(large.data());
  }
  size_t at = 0;
  for (std::string_view part : parts) {
    const uint64_t n = part.size();
    std::memcpy(buffer + at, &n, sizeof n);
    if (!part.empty()) std::memcpy(buffer + at + sizeof n, part.data(), part.size());
    at += sizeof n + part.size();
  }
  std::array<unsigned char, crypto_shorthash_siphashx24_BYTES> digest{};
  crypto_shorthash_siphashx24(digest.data(), buffer, total, kKey.data());
  sodium_memzero(buffer, total);  // it held a password
  return std::string(reinterpret_cast<const char*>(digest.data()), digest.size());
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return a.empty() || sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace folio::acl
