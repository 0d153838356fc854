#include "storage/utf8.h"

#include <doctest/doctest.h>

#include <string>

namespace folio::storage {
namespace {

TEST_CASE("IsValidUtf8: accepts well-formed text and rejects every malformed kind") {
  const std::string_view good[] = {"",
                                   "plain",
                                   "Qu\xC3\xA4rz",
                                   "\xE2\x82\xAC",
                                   "\xF0\x9F\x98\x80",
                                   std::string_view("a\0b", 3),
                                   "\xF4\x8F\xBF\xBF"};
  for (const std::string_view text : good) CHECK_MESSAGE(IsValidUtf8(text), text);
  const std::string_view bad[] = {
      "\xC3",              // truncated 2-byte
      "\x80",              // lone continuation
      "\xC0\xAF",          // overlong '/'
      "\xE0\x80\xAF",      // overlong 3-byte
      "\xED\xA0\x80",      // surrogate U+D800
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xE2\x82",          // truncated 3-byte
      "\xFF",              // never valid
      "ok\xC3(",           // bad continuation
  };
  for (const std::string_view text : bad) CHECK_MESSAGE(!IsValidUtf8(text), QuoteForMessage(text));
}

TEST_CASE("QuoteForMessage: escapes bytes and cuts long text") {
  CHECK(QuoteForMessage("abc") == "'abc'");
  CHECK(QuoteForMessage("a\xFF"
                        "b") == "'a\\xFFb'");
  CHECK(QuoteForMessage("a\nb") == "'a\\x0Ab'");
  CHECK(QuoteForMessage("\xC3\xA4") == "'\xC3\xA4'");
  const std::string quoted = QuoteForMessage(std::string(500, 'x'), 20);
  CHECK(quoted.size() < 30);
  CHECK(quoted.find("...'") != std::string::npos);
  CHECK(IsValidUtf8(QuoteForMessage("\xE2\x82\xAC\xE2\x82")));
}

TEST_CASE("Utf8SequenceLength: the length of each kind of sequence, 0 where none starts") {
  CHECK(Utf8SequenceLength("a", 0) == 1);
  CHECK(Utf8SequenceLength("\xC3\xA4", 0) == 2);
  CHECK(Utf8SequenceLength("\xE2\x82\xAC", 0) == 3);
  CHECK(Utf8SequenceLength("\xF0\x9F\x98\x80", 0) == 4);
  CHECK(Utf8SequenceLength("\xC3\xA4", 1) == 0);  // a continuation byte
  CHECK(Utf8SequenceLength("\xE2\x82", 0) == 0);  // cut short
}

}  // namespace
}  // namespace folio::storage
