// CONTAINS text search expressions: words, OR, negation, phrases, escapes, and their FTS5 form.
#include "repo/query/text_search.h"

#include <doctest/doctest.h>

using namespace folio;
using namespace folio::query;

namespace {

// "a b | -c" : conjuncts separated by '|', negated terms with '-', phrases in quotes.
std::string Shape(const TextQuery& q) {
  std::string out;
  for (const auto& c : q.any_of) {
    if (!out.empty()) out += " | ";
    std::string conj;
    for (const TextTerm& t : c) {
      if (!conj.empty()) conj += ' ';
      conj += (t.negated ? "-" : "") + (t.text.find(' ') != std::string::npos ? "\"" + t.text + "\"" : t.text);
    }
    out += conj;
  }
  return out;
}

std::string Parsed(const std::string& raw) {
  auto q = ParseTextSearch(raw);
  REQUIRE_MESSAGE(q.ok(), raw << " -> " << q.status().ToString());
  return Shape(*q);
}

}  // namespace

TEST_CASE("TextSearch: words AND, OR between conjunctions, negation, phrases") {
  CHECK(Parsed("fox") == "fox");
  CHECK(Parsed("quick  brown\tfox") == "quick brown fox");
  CHECK(Parsed("fox OR dog") == "fox | dog");
  CHECK(Parsed("quick fox OR lazy dog") == "quick fox | lazy dog");
  CHECK(Parsed("fox -dog") == "fox -dog");
  CHECK(Parsed("\"brown  fox\" jumps") == "\"brown fox\" jumps");
  CHECK(Parsed("-\"lazy dog\"") == "-\"lazy dog\"");
  CHECK(Parsed("fox or dog") == "fox or dog");  // lowercase 'or' is a word
  CHECK(Parsed("a\\-b") == "a-b");              // an escaped '-' is part of the word
  CHECK(Parsed("\\-x") == "-x");
  CHECK(Parsed("\\OR") == "OR");  // an escaped OR is a word
  CHECK(Parsed("it''s") == "it's");
  CHECK(Parsed("say \"\\\"hi\\\"\"") == "say \"hi\"");
  CHECK(Parsed("fox !!! dog") == "fox dog");  // no token in '!!!'
}

TEST_CASE("TextSearch: errors") {
  for (const char* raw : {"", "   ", "!!! ???", "OR fox", "fox OR", "fox OR OR dog", "\"unclosed phrase"}) {
    CAPTURE(raw);
    auto q = ParseTextSearch(raw);
    REQUIRE_FALSE(q.ok());
    CHECK(q.status().kind() == ErrorKind::kInvalidArgument);
    CHECK(q.status().message().find("CONTAINS('") == 0);
  }
  std::string many;
  for (int i = 0; i <= static_cast<int>(kMaxTextTerms); ++i) many += "w" + std::to_string(i) + " ";
  auto q = ParseTextSearch(many);
  REQUIRE_FALSE(q.ok());
  CHECK(q.status().message().find("more than 100 terms") != std::string::npos);
}

TEST_CASE("TextSearch: FTS5 expressions quote every term") {
  auto q = ParseTextSearch("quick \"brown fox\" -lazy -\"big dog\"");
  REQUIRE(q.ok());
  CHECK(Fts5Conjunct(q->any_of[0]) == "(\"quick\" AND \"brown fox\") NOT \"lazy\" NOT \"big dog\"");
  CHECK(Fts5String("say \"hi\"") == "\"say \"\"hi\"\"\"");
  auto negative = ParseTextSearch("-dog");
  REQUIRE(negative.ok());
  CHECK(Fts5Conjunct(negative->any_of[0]).empty());
}
