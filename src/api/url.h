// Text that arrives in a URL or a form: UTF-8 validation, percent-decoding, splitting a
// URL path into safe segments, form-urlencoded pairs and RFC 5987 values. Every decoder
// here returns valid UTF-8 or an error; none of them lets an encoded '/' or '..' through
// as a path segment.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "folio/status.h"
#include "storage/utf8.h"

namespace folio::api {

class FormBudget;

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

// ParseFormUrlencoded for a body that arrives in pieces: each pair is decoded as its bytes
// come and handed to the sink when it ends, so only the pair being read is held. Same
// rules and messages as ParseFormUrlencoded. With a `budget`, every name and value is
// counted against the field limits (form_limits.h) while it arrives: a 200 MB value is
// refused after its first megabyte.
class UrlencodedParser {
 public:
  using Sink = std::function<void(std::string name, std::string value)>;

  // `budget` may be null (no limits: a query string, bounded by the request head).
  UrlencodedParser(std::string_view what, FormBudget* budget, Sink sink);

  // Parses the next piece. Errors: kInvalidArgument for a bad escape or invalid UTF-8
  // (as ParseFormUrlencoded); kConstraint from the budget.
  Status Feed(std::string_view bytes);
  // Ends the body (completes its last pair). Errors as Feed.
  Status Finish();

 private:
  Status Append(std::string_view span);       // decoded into the current name or value
  Status FinishEscape(bool terminated);       // the pending "%XY" is complete or cut short
  Status Charge();                            // charges what Append added to the budget
  Status EndName();
  Status EndPair();
  Status EscapeFailure(std::string_view escape_text) const;

  std::string what_;
  FormBudget* budget_;
  Sink sink_;
  bool in_name_ = true;
  bool piece_started_ = false;   // a piece without bytes ("&&") is skipped
  bool ascii_ = true;            // the current name or value has no byte >= 0x80 so far
  std::string name_;
  std::string raw_name_;         // the name as sent, its first bytes only (for messages)
  std::string value_;
  size_t uncharged_ = 0;         // decoded bytes not yet charged to the budget
  char escape_[3] = {0, 0, 0};   // a '%' escape split over pieces: '%' and up to 2 chars
  size_t escape_len_ = 0;
  // A bad escape in a name is reported once the whole name has arrived (the message
  // quotes it): the escape, while the rest of the name is skipped.
  std::string name_error_;
};

// Decodes an RFC 5987 extended value, the text after `filename*=` in a
// Content-Disposition header: charset'language'percent-encoded, e.g.
// "UTF-8''na%C3%AFve%20plan.txt" -> "naïve plan.txt". The charset is matched
// case-insensitively and must be UTF-8 or ISO-8859-1 (converted to UTF-8). Surrounding
// double quotes, which some clients add, are tolerated.
// Errors: kInvalidArgument naming the value when it lacks the two quotes, names another
// charset, has a bad escape, or decodes to invalid UTF-8.
Result<std::string> DecodeRfc5987(std::string_view value);

}  // namespace folio::api
