// What the full-text index reads: which contents are text, and UTF-8 cleaning.
#include "repo/query/text_extract.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <string_view>

#include "storage/utf8.h"

using namespace folio::query;

TEST_CASE("TextExtract: textual by MIME type or by file name") {
  CHECK(IsTextual("text/plain", "x"));
  CHECK(IsTextual("text/markdown; charset=utf-8", "x"));
  CHECK(IsTextual("text/csv", "x"));
  CHECK(IsTextual("application/json", "x"));
  CHECK(IsTextual("application/ld+json", "x"));
  CHECK(IsTextual("application/xml", "x"));
  CHECK(IsTextual("image/svg+xml", "x"));
  CHECK(IsTextual("application/octet-stream", "main.cc"));
  CHECK(IsTextual("application/octet-stream", "lib.RS"));
  CHECK(IsTextual("", "Makefile"));
  CHECK_FALSE(IsTextual("application/pdf", "x.pdf"));
  CHECK_FALSE(IsTextual("image/png", "x.png"));
  CHECK_FALSE(IsTextual("application/octet-stream", "blob"));
}

// ValidUtf8 copies runs of bytes; this is what it must equal: each well-formed sequence
// kept but NUL, each first byte of anything else dropped.
std::string ValidUtf8OneByOne(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = folio::storage::Utf8SequenceLength(s, i);
    if (n == 0) {
      ++i;
      continue;
    }
    if (n > 1 || s[i] != '\0') out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

TEST_CASE("TextExtract: ValidUtf8 equals the sequence-by-sequence filter on random bytes") {
  std::mt19937 random(20261129);
  // Bytes drawn mostly from text, with lead and continuation bytes, NUL and 0xFF.
  const std::string alphabet = std::string("ab \n", 4) + std::string("\0", 1) +
                               "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xED\xA0\xC0\xAF\xFF\x80\xBF";
  for (int round = 0; round < 20000; ++round) {
    std::string bytes(random() % 24, ' ');
    for (char& c : bytes) c = alphabet[random() % alphabet.size()];
    CAPTURE(round);
    REQUIRE(ValidUtf8(bytes) == ValidUtf8OneByOne(bytes));
  }
}

TEST_CASE("TextExtract: invalid UTF-8 is skipped, valid text kept") {
  CHECK(ValidUtf8("plain ascii") == "plain ascii");
  CHECK(ValidUtf8("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(ValidUtf8("a\xFF"
                  "b") == "ab");  // never valid
  CHECK(ValidUtf8("a\x80"
                  "b") == "ab");  // continuation without a lead
  CHECK(ValidUtf8("a\xC0\xAF"
                  "b") == "ab");  // overlong
  CHECK(ValidUtf8("a\xED\xA0\x80"
                  "b") == "ab");  // surrogate
  CHECK(ValidUtf8("a\xE2\x82"
                  "b") == "ab");                               // a sequence broken off
  CHECK(ValidUtf8("end\xE2\x82") == "end");                    // cut off at the end
  CHECK(ValidUtf8(std::string("a\0b", 3)) == "ab");            // NUL dropped
  CHECK(ValidUtf8("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");  // 4 bytes
}
