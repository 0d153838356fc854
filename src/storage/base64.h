// Base64 (RFC 4648, with padding) for binary content held in the commit log's records.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace folio::storage {

std::string Base64Encode(std::string_view bytes);
// nullopt for anything but canonical padded base64 (no spaces, no line breaks).
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace folio::storage
