// The credentials a request carries: HTTP Basic (Authorization header) and an API key
// (X-API-KEY header). Parsing only; authenticator.h checks them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "folio/status.h"

namespace folio::api::auth {

struct BasicCredentials {
  std::string user;
  std::string password;
};

struct Credentials {
  std::optional<BasicCredentials> basic;
  std::string api_key;  // "" when absent
  bool empty() const { return !basic && api_key.empty(); }
};

// Reads the Authorization and X-API-KEY header values as sent ("" when absent).
// Basic is "Basic " + base64("user:password"), the scheme in any case (RFC 7617); the
// password is everything after the first ':'. Errors: kUnauthorized for another scheme
// (naming it) or a malformed Basic value (never quoting it: it holds a password).
Result<Credentials> ParseCredentials(std::string_view authorization, std::string_view api_key);

// True for a loopback address: 127.0.0.0/8 ("127.0.0.1"), "::1", IPv4-mapped
// "::ffff:127.x.y.z", and the name "localhost". Text as getnameinfo or a user writes it.
bool IsLoopbackAddress(std::string_view address);

// Standard base64 (RFC 4648 §4, padding optional); nullopt for anything else.
std::optional<std::string> DecodeBase64(std::string_view text);

}  // namespace folio::api::auth
