// Text that arrives in a URL or a form: UTF-8 validation, percent-decoding, splitting a
// URL path into safe segments, form-urlencoded pairs and RFC 5987 values. Every decoder
// here returns valid UTF-8 or an error; none of them lets an encoded '/' or '..' through
// as a path segment.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "folio/status.h"
#include "storage/utf8.h"

namespace folio::api {

// UTF-8 validation and quoting for messages live in storage/utf8.h (every layer needs
// them); the request layer uses them under their usual names.
using storage::IsValidUtf8;
using storage::QuoteForMessage;

enum class PlusMode { kLiteral, kSpace };  // kSpace: '+' means ' ' (form encoding)

// Decodes %XX escapes (hex digits of either case) and, with PlusMode::kSpace, '+'.
// `what` names the text in error messages, e.g. "query parameter 'name'".
// Errors: kInvalidArgument when a '%' is not followed by two hex digits ("invalid
// percent-escape '%zz' in <what>") or when the decoded bytes are not valid UTF-8
// ("invalid UTF-8 in <what>").
Result<std::string> PercentDecode(std::string_view text, std::string_view what,
                                  PlusMode plus = PlusMode::kLiteral);

// Splits the path part of a URL (no query string) on '/', skips empty segments
// ("/a//b/" is {"a", "b"}; "" and "/" are {}), and percent-decodes each segment
// ('+' stays '+').
// Errors: kInvalidArgument naming the segment when a segment has a bad escape or
// invalid UTF-8, or when, after decoding, it is "." or "..", or contains '/' or NUL
// (so "%2e%2e" and "a%2Fb" cannot traverse or smuggle a separator).
Result<std::vector<std::string>> SplitPath(std::string_view raw_path);

// Parses application/x-www-form-urlencoded text (a query string without '?', or a form
// body): pairs separated by '&', name and value split at the first '=' (a piece without
// '=' has an empty value), empty pieces skipped, '+' is a space, both sides
// percent-decoded. Pairs keep their order; repeated names are all kept.
// `what` names the text in messages ("query string", "form body").
// Errors: kInvalidArgument naming the parameter on a bad escape or invalid UTF-8.
Result<std::vector<std::pair<std::string, std::string>>> ParseFormUrlencoded(std::string_view text,
                                                                             std::string_view what);

// Decodes an RFC 5987 extended value, the text after `filename*=` in a
// Content-Disposition header: charset'language'percent-encoded, e.g.
// "UTF-8''na%C3%AFve%20plan.txt" -> "naïve plan.txt". The charset is matched
// case-insensitively and must be UTF-8 or ISO-8859-1 (converted to UTF-8). Surrounding
// double quotes, which some clients add, are tolerated.
// Errors: kInvalidArgument naming the value when it lacks the two quotes, names another
// charset, has a bad escape, or decodes to invalid UTF-8.
Result<std::string> DecodeRfc5987(std::string_view value);

}  // namespace folio::api
