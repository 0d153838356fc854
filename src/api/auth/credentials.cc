// Authorization and X-API-KEY parsing; see credentials.h.
#include "api/auth/credentials.h"

#include <array>
#include <cstdint>

#include "api/ascii.h"

namespace folio::api::auth {
namespace {

// Value of each byte in standard base64; -1 for bytes outside the alphabet.
constexpr std::array<int8_t, 256> MakeBase64Table() {
  std::array<int8_t, 256> t{};
  for (size_t i = 0; i < t.size(); ++i) t[i] = -1;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
  return t;
}
constexpr std::array<int8_t, 256> kBase64 = MakeBase64Table();

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool IsLoopbackAddress(std::string_view address) {
  if (address.size() > 2 && address.front() == '[' && address.back() == ']') address = address.substr(1, address.size() - 2);
  if (EqualsIgnoreCase(address, "localhost") || address == "::1") return true;
  if (StartsWithIgnoreCase(address, "::ffff:")) address.remove_prefix(7);
  // 127.0.0.0/8: "127." followed by three numbers.
  if (!address.starts_with("127.")) return false;
  int dots = 0;
  for (char c : address.substr(4)) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 2 && address.back() != '.';
}

std::optional<std::string> DecodeBase64(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = kBase64[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  return out;
}

Result<Credentials> ParseCredentials(std::string_view authorization, std::string_view api_key) {
  Credentials c;
  c.api_key = std::string(Trim(api_key));
  authorization = Trim(authorization);
  if (authorization.empty()) return c;
  const size_t space = authorization.find_first_of(" \t");
  const std::string_view scheme = authorization.substr(0, space);
  if (!EqualsIgnoreCase(scheme, "Basic")) {
    return Status(ErrorKind::kUnauthorized, "authorization scheme '" + std::string(scheme.substr(0, 32)) +
                                                "' is not supported: use Basic or an X-API-KEY header");
  }
  const std::string_view encoded = space == std::string_view::npos ? "" : Trim(authorization.substr(space));
  const std::optional<std::string> decoded = DecodeBase64(encoded);
  const size_t colon = decoded ? decoded->find(':') : std::string::npos;
  if (!decoded || colon == std::string::npos || colon == 0) {
    return Status(ErrorKind::kUnauthorized,
                  "malformed Basic credentials: expected base64 of 'user:password' after 'Basic '");
  }
  c.basic = BasicCredentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
  return c;
}

}  // namespace folio::api::auth
