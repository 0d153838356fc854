// The request log: one line per request at info level, through the log output
// (log_output.h, buffered: no system call per line). A failed request's line carries
// the exception name and message: for 5xx at info, for 4xx only when the level is debug
// (client errors are the clients' business; server errors are the operator's).
//
// Text: GET /demo/cmis/a.txt object 404 97B 0.3ms objectNotFound "no object at ..."
//       (the message as a JSON string)
// JSON: {"time":"...","method":"GET","path":"/demo/cmis/a.txt","operation":"object",
//        "status":404,"bytes":97,"duration":0.000312,"exception":"objectNotFound",
//        "message":"..."} (duration in seconds; exception and message null when not shown)
#pragma once

#include <cstdint>
#include <string_view>

#include "log/log_output.h"

namespace folio::logging {

struct RequestRecord {
  std::string_view method;     // "" when the request line could not be read
  std::string_view target;     // as sent; the query string is left out of the log
  std::string_view operation;  // "" when no operation ran
  int status = 0;
  uint64_t bytes = 0;          // response body bytes sent
  double seconds = 0;          // from the request's first byte to the response's last
  std::string_view exception;  // "" for a success
  std::string_view message;
};

class RequestLog {
 public:
  explicit RequestLog(LogFormat format) : format_(format) {}

  // Writes the line of `record` if the level allows (info). Thread-safe.
  void Write(const RequestRecord& record) const;

 private:
  LogFormat format_;
};

}  // namespace folio::logging
