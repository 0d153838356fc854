// Rules on how a request's body is framed that must hold whichever HTTP parser read its
// head (docs/API.md §3.9). src/http checks them in its pre-routing step, with the Host
// and Origin rules (web_policy.h), before a byte of the body is read.
#pragma once

#include <string_view>
#include <vector>

#include "folio/status.h"

namespace folio::api {

// `transfer_encodings`: the value of every Transfer-Encoding field of the head, in order.
// Errors: kInvalidArgument when there is more than one field, naming their values: a
// proxy before the server may read only the first or the last, or join them, and so
// frame the body differently from the server (request smuggling); one field with the
// one coding Folio takes, `chunked`, is all a client needs.
Status CheckTransferEncodings(const std::vector<std::string_view>& transfer_encodings);

}  // namespace folio::api
