// UTF-8 text checks shared by every layer: validation (names, URLs, form fields) and
// quoting client text in error messages, so that a message is always valid UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace folio::storage {

// The length of the well-formed UTF-8 sequence that starts at text[i] (1 to 4), or 0
// when there is none there: a stray continuation byte, an overlong form, a surrogate
// (U+D800..U+DFFF), a code point above U+10FFFF, or a sequence cut short.
// Requires: i < text.size().
size_t Utf8SequenceLength(std::string_view text, size_t i);

// True when `text` is well-formed UTF-8 (see Utf8SequenceLength). NUL is valid.
bool IsValidUtf8(std::string_view text);

// `text` in single quotes for an error message: invalid UTF-8 bytes and control
// characters become \xNN, and text beyond `max_bytes` is cut and marked "...". The
// result is always valid UTF-8, so it is safe to put in a JSON error body.
std::string QuoteForMessage(std::string_view text, size_t max_bytes = 120);

}  // namespace folio::storage
