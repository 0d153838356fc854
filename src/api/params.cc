// Params: merging query and body parameters, and the typed getters.
#include "api/params.h"

#include <charconv>
#include <utility>

#include "api/ascii.h"
#include "api/cmis_names.h"
#include "api/form_limits.h"
#include "api/url.h"

namespace folio::api {
namespace {

// The lookup key of a parameter name: lowercased; the three names of the operation
// parameter share one key (docs/API.md §3.2–§3.3).
std::string Key(std::string_view name) {
  std::string key = AsciiToLower(name);
  if (key == kParamCmisSelector || key == kParamCmisAction) return std::string(kParamOperation);
  return key;
}

bool IsAbsent(const Json& value) {
  return value.is_null() || (value.is_string() && value.get_ref<const std::string&>().empty());
}

std::string ParamForMessage(std::string_view name) {
  return "parameter '" + std::string(name) + "'";
}

Status CheckUtf8(const std::string& name, const std::string& value, std::string_view source) {
  if (!IsValidUtf8(name)) {
    return InvalidArgument("invalid UTF-8 in " + std::string(source) + " parameter name " +
                           QuoteForMessage(name));
  }
  if (!IsValidUtf8(value)) {
    return InvalidArgument("invalid UTF-8 in " + std::string(source) + " parameter " +
                           QuoteForMessage(name));
  }
  return OkStatus();
}

bool IsJsonMediaType(std::string_view media) {
  return media == "application/json" || media == "text/json" ||
         (media.size() > 5 && media.substr(media.size() - 5) == "+json");
}

// Parses a JSON value kept as text in a string parameter, or returns it as is.
Result<std::optional<Json>> JsonOfKind(const Json* value, std::string_view name, bool want_object) {
  if (value == nullptr) return std::optional<Json>();
  const std::string_view wanted = want_object ? "a JSON object" : "a JSON array";
  Json parsed;
  if (value->is_string()) {
    FOLIO_ASSIGN_OR_RETURN(
        parsed, ParseJsonText(value->get_ref<const std::string&>(), ParamForMessage(name)));
  } else {
    parsed = *value;
  }
  if (want_object ? !parsed.is_object() : !parsed.is_array()) {
    return InvalidArgument(ParamForMessage(name) + " must be " + std::string(wanted) + ", got " +
                           std::string(JsonTypeForMessage(parsed)));
  }
  return std::optional<Json>(std::move(parsed));
}

}  // namespace

BodyEncoding BodyEncodingOf(std::string_view media) {
  if (media == "multipart/form-data") return BodyEncoding::kMultipart;
  if (media == "application/x-www-form-urlencoded") return BodyEncoding::kUrlencoded;
  if (IsJsonMediaType(media)) return BodyEncoding::kJson;
  return BodyEncoding::kNone;
}

Status UnsupportedBody(std::string_view media) {
  if (media.empty()) {
    return InvalidArgument(
        "request body has no Content-Type: use application/json, multipart/form-data or "
        "application/x-www-form-urlencoded");
  }
  return InvalidArgument("unsupported request body type " + QuoteForMessage(media) +
                         ": use application/json, multipart/form-data or "
                         "application/x-www-form-urlencoded");
}

Result<Params> Params::FromRequest(const Request& request) {
  Params params;
  const std::string media = MediaType(request.content_type);
  const BodyEncoding encoding = BodyEncodingOf(media);
  if (encoding == BodyEncoding::kMultipart ||
      (encoding == BodyEncoding::kUrlencoded && request.body.empty() && !request.form_fields.empty())) {
    params.body_encoding_ = encoding;  // the fields are in request.form_fields
  } else if (!request.body.empty()) {
    params.body_encoding_ = encoding;
    if (encoding == BodyEncoding::kJson) {
      if (request.body.size() > kMaxFormBytes) return JsonBodyTooLarge();
      FOLIO_ASSIGN_OR_RETURN(Json body, ParseJsonText(request.body, "request body"));
      if (!body.is_object()) {
        return InvalidArgument("request body must be a JSON object, got " +
                               std::string(JsonTypeForMessage(body)));
      }
      FOLIO_RETURN_IF_ERROR(CheckJsonValueSizes(body));
      for (auto it = body.begin(); it != body.end(); ++it) params.Add(it.key(), std::move(*it));
    } else if (encoding == BodyEncoding::kUrlencoded) {
      FormBudget budget;
      UrlencodedParser parser("form body", &budget, [&params](std::string name, std::string value) {
        params.Add(std::move(name), Json(std::move(value)));
      });
      FOLIO_RETURN_IF_ERROR(parser.Feed(request.body));
      FOLIO_RETURN_IF_ERROR(parser.Finish());
    } else {
      return UnsupportedBody(media);
    }
  }
  for (const FormField& field : request.form_fields) {
    FOLIO_RETURN_IF_ERROR(CheckUtf8(field.name, field.value, "form"));
    params.Add(field.name, Json(field.value));
  }
  for (const auto& [name, value] : request.query) {
    FOLIO_RETURN_IF_ERROR(CheckUtf8(name, value, "query"));
    params.Add(name, Json(value));
  }
  return params;
}

void Params::Add(std::string name, Json value) {
  std::string key = Key(name);
  const auto it = index_.find(key);
  if (it == index_.end()) {
    index_.emplace(std::move(key), entries_.size());
    entries_.push_back({std::move(name), std::move(value)});
    return;
  }
  Entry& existing = entries_[it->second];
  if (IsAbsent(existing.value) && !IsAbsent(value)) {
    existing.name = std::move(name);
    existing.value = std::move(value);
  }
}

const Json* Params::Find(std::string_view name) const {
  const auto it = index_.find(Key(name));
  if (it == index_.end()) return nullptr;
  const Json& value = entries_[it->second].value;
  return IsAbsent(value) ? nullptr : &value;
}

bool Params::Has(std::string_view name) const { return Find(name) != nullptr; }

Result<std::optional<Operation>> Params::GetOperation() const {
  const Json* value = Find(kParamOperation);
  if (value == nullptr) return std::optional<Operation>();
  if (!value->is_string()) {
    return InvalidArgument("parameter 'operation' must be a string, got " +
                           std::string(JsonTypeForMessage(*value)));
  }
  FOLIO_ASSIGN_OR_RETURN(Operation op, ParseOperation(value->get_ref<const std::string&>()));
  return std::optional<Operation>(op);
}

Result<std::string> Params::GetString(std::string_view name, std::string_view fallback) const {
  const Json* value = Find(name);
  if (value == nullptr) return std::string(fallback);
  if (value->is_string()) return value->get<std::string>();
  if (value->is_object() || value->is_array()) {
    return InvalidArgument(ParamForMessage(name) + " must be a string, got " +
                           std::string(JsonTypeForMessage(*value)));
  }
  return value->dump();  // a number or a boolean, as JSON text
}

Result<std::string> Params::RequireString(std::string_view name) const {
  if (!Has(name)) return InvalidArgument("missing required " + ParamForMessage(name));
  return GetString(name);
}

Result<bool> Params::GetBool(std::string_view name, bool fallback) const {
  const Json* value = Find(name);
  if (value == nullptr) return fallback;
  if (value->is_boolean()) return value->get<bool>();
  if (value->is_string()) {
    const std::string lower = AsciiToLower(value->get_ref<const std::string&>());
    if (lower == "true") return true;
    if (lower == "false") return false;
  }
  const std::string text = value->is_string() ? value->get<std::string>() : value->dump();
  return InvalidArgument(ParamForMessage(name) + " must be true or false, got " +
                         QuoteForMessage(text));
}

Result<int64_t> Params::GetInt(std::string_view name, int64_t fallback, int64_t min,
                               int64_t max) const {
  const Json* value = Find(name);
  if (value == nullptr) return fallback;
  const std::string text = value->is_string() ? value->get<std::string>() : value->dump();
  int64_t number = 0;
  bool parsed = false;
  if (value->is_number_integer()) {
    if (value->is_number_unsigned() && value->get<uint64_t>() > uint64_t{INT64_MAX}) {
      number = INT64_MAX;  // out of any range we accept; reported below
    } else {
      number = value->get<int64_t>();
    }
    parsed = true;
  } else if (value->is_string() && !text.empty()) {
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (*begin == '+' && text.size() > 1 && text[1] != '-') ++begin;  // from_chars rejects '+'
    const auto [ptr, ec] = std::from_chars(begin, end, number);
    if (ec == std::errc::result_out_of_range) {
      return InvalidArgument(ParamForMessage(name) + " must be between " + std::to_string(min) +
                             " and " + std::to_string(max) + ", got " + QuoteForMessage(text));
    }
    parsed = ec == std::errc() && ptr == end;
  }
  if (!parsed) {
    return InvalidArgument(ParamForMessage(name) + " must be an integer, got " +
                           QuoteForMessage(text));
  }
  if (number < min || number > max) {
    return InvalidArgument(ParamForMessage(name) + " must be between " + std::to_string(min) +
                           " and " + std::to_string(max) + ", got " + QuoteForMessage(text));
  }
  return number;
}

Result<std::optional<Json>> Params::GetJsonObject(std::string_view name) const {
  return JsonOfKind(Find(name), name, /*want_object=*/true);
}

Result<std::optional<Json>> Params::GetJsonArray(std::string_view name) const {
  return JsonOfKind(Find(name), name, /*want_object=*/false);
}

}  // namespace folio::api
