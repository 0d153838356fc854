// GET /-/ui/...; see ui_endpoint.h.
#include "http/ui_endpoint.h"

#include <string>

#include "folio/status.h"
#include "ui/assets.h"

namespace folio::http {

void AnswerUi(Call& call, const HttpHead& head, std::string_view path) {
  if (head.method == "POST") {
    call.Fail(0, NotSupported(std::string(path.substr(0, 100)) + " answers GET only"));
    return;
  }
  ui::Answer answer = ui::AnswerRequest(path, head.header("If-None-Match"));
  if (answer.status == 404) {
    call.Fail(0, ObjectNotFound(std::move(answer.not_found)));
    return;
  }
  api::Response r;
  r.status = answer.status;
  r.headers = std::move(answer.headers);
  r.body = std::string(answer.body);
  r.operation = "ui";
  call.Answer(std::move(r));
}

}  // namespace folio::http
