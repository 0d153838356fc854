// Body framing rules; see framing_rules.h.
#include "api/framing_rules.h"

#include <string>

namespace folio::api {

Status CheckTransferEncodings(const std::vector<std::string_view>& transfer_encodings) {
  if (transfer_encodings.size() <= 1) return OkStatus();
  std::string values;
  for (std::string_view v : transfer_encodings) {
    values += values.empty() ? "'" : ", '";
    values += v.substr(0, 40);
    values += "'";
  }
  return InvalidArgument("the request has " + std::to_string(transfer_encodings.size()) +
                         " Transfer-Encoding headers (" + values + "): send one, Transfer-Encoding: chunked");
}

}  // namespace folio::api
