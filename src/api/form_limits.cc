// FormBudget: counting a request's fields against the limits.
#include "api/form_limits.h"

#include <string>
#include <vector>

#include "api/url.h"

namespace folio::api {
namespace {

std::string Limit(size_t bytes, std::string_view unit_text) {
  return std::string(unit_text) + " (" + std::to_string(bytes) + " bytes)";
}

// True when `value` holds a string (or a key) over kMaxFieldBytes; `path` then gets the
// segments leading to it, innermost first (built only on the way out: most bodies pass).
bool FindOversized(const Json& value, std::vector<std::string>& path) {
  if (value.is_string()) return value.get_ref<const std::string&>().size() > kMaxFieldBytes;
  if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      if (FindOversized(value[i], path)) {
        path.push_back("[" + std::to_string(i) + "]");
        return true;
      }
    }
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key().size() > kMaxFieldBytes || FindOversized(*it, path)) {
        path.push_back(it.key());
        return true;
      }
    }
  }
  return false;
}

}  // namespace

Status CheckJsonValueSizes(const Json& body) {
  std::vector<std::string> path;
  if (!FindOversized(body, path)) return OkStatus();
  std::string name;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    if (!name.empty() && (it->empty() || it->front() != '[')) name += '.';
    name += *it;
  }
  return Constraint("JSON field " + QuoteForMessage(name) + " is larger than the limit of " +
                    Limit(kMaxFieldBytes, "1 MiB") + " for one value");
}

Status FormBudget::BeginField() {
  name_ = 0;
  value_ = 0;
  return AddTotal("", kFieldOverheadBytes);
}

Status FormBudget::AddName(std::string_view name, size_t bytes) {
  name_ += bytes;
  if (name_ > kMaxFieldBytes) {
    return Constraint("form field name " + QuoteForMessage(name) + " is larger than the limit of " +
                      Limit(kMaxFieldBytes, "1 MiB"));
  }
  return AddTotal(name, bytes);
}

Status FormBudget::AddValue(std::string_view name, size_t bytes) {
  value_ += bytes;
  if (value_ > kMaxFieldBytes) {
    return Constraint("form field " + QuoteForMessage(name) + " is larger than the limit of " +
                      Limit(kMaxFieldBytes, "1 MiB") + " for one value");
  }
  return AddTotal(name, bytes);
}

Status FormBudget::AddTotal(std::string_view name, size_t bytes) {
  total_ += bytes;
  if (total_ > kMaxFormBytes) {
    std::string message = "the form fields of the request are larger than the limit of " +
                          Limit(kMaxFormBytes, "16 MiB") + " in all";
    if (!name.empty()) message += " (at form field " + QuoteForMessage(name) + ")";
    return Constraint(message + "; send content as a multipart file part");
  }
  return OkStatus();
}

Status JsonBodyTooLarge() {
  return Constraint("the JSON body is larger than the limit of " + Limit(kMaxFormBytes, "16 MiB") +
                    " for the fields of a request; send content as a multipart file part");
}

}  // namespace folio::api
