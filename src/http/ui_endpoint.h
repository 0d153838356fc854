// GET /-/ui/...: the browse UI's files (src/ui/assets.h) as HTTP responses.
#pragma once

#include <string_view>

#include "http/call.h"
#include "http/http_head.h"

namespace folio::http {

// Answers `call`, a request for `path` (ui::IsUiPath): the file, 304, a redirect to
// /-/ui/, 404 objectNotFound for an unknown file, 405 notSupported for POST.
void AnswerUi(Call& call, const HttpHead& head, std::string_view path);

}  // namespace folio::http
