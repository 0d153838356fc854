// CONTAINS text search expressions; see text_search.h.
#include "repo/query/text_search.h"

namespace folio::query {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// True when the unicode61 tokenizer finds a token in `text`: an ASCII letter or digit, or
// any non-ASCII character (letters of other scripts; the tokenizer drops Unicode
// punctuation itself, which at worst makes a term that matches nothing).
bool HasToken(std::string_view text) {
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

struct RawTerm {
  bool negated = false;
  bool phrase = false;
  bool escaped = false;  // held an escaped character, so it is never the operator OR
  std::string text;
};

}  // namespace

Result<TextQuery> ParseTextSearch(std::string_view raw) {
  const std::string shown = "CONTAINS('" + std::string(raw.substr(0, 60)) + (raw.size() > 60 ? "...')" : "')");
  std::vector<RawTerm> terms;
  size_t i = 0;
  while (i < raw.size()) {
    if (IsSpace(raw[i])) {
      ++i;
      continue;
    }
    RawTerm t;
    if (raw[i] == '-') {
      t.negated = true;
      ++i;
    }
    if (i < raw.size() && raw[i] == '"') {
      t.phrase = true;
      ++i;
      bool closed = false;
      bool space = false;
      while (i < raw.size()) {
        char c = raw[i];
        if (c == '\\' && i + 1 < raw.size()) {
          c = raw[++i];
        } else if (c == '"') {
          closed = true;
          ++i;
          break;
        } else if (c == '\'' && i + 1 < raw.size() && raw[i + 1] == '\'') {
          ++i;
        } else if (IsSpace(c)) {
          space = !t.text.empty();
          ++i;
          continue;
        }
        if (space) t.text += ' ';
        space = false;
        t.text += c;
        ++i;
      }
      if (!closed) return InvalidArgument(shown + ": the phrase \"" + t.text + " is not closed by a double quote");
    } else {
      while (i < raw.size() && !IsSpace(raw[i])) {
        char c = raw[i];
        if (c == '\\' && i + 1 < raw.size()) {
          c = raw[++i];
          t.escaped = true;
        } else if (c == '\'' && i + 1 < raw.size() && raw[i + 1] == '\'') {
          ++i;
        } else if (c == '"') {
          break;  // a phrase starts right after the word
        }
        t.text += c;
        ++i;
      }
    }
    if (terms.size() >= 2 * kMaxTextTerms) {
      return InvalidArgument(shown + ": more than " + std::to_string(kMaxTextTerms) + " terms");
    }
    terms.push_back(std::move(t));
  }
  TextQuery q;
  q.any_of.emplace_back();
  size_t count = 0;
  bool after_or = false;
  bool had_term = false;
  for (RawTerm& t : terms) {
    if (!t.phrase && !t.negated && !t.escaped && t.text == "OR") {
      if (!had_term || after_or) return InvalidArgument(shown + ": OR needs a term on each side");
      after_or = true;
      if (!q.any_of.back().empty()) q.any_of.emplace_back();
      continue;
    }
    had_term = true;
    after_or = false;
    if (!HasToken(t.text)) continue;
    if (++count > kMaxTextTerms)
      return InvalidArgument(shown + ": more than " + std::to_string(kMaxTextTerms) + " terms");
    q.any_of.back().push_back(TextTerm{t.negated, std::move(t.text)});
  }
  if (after_or) return InvalidArgument(shown + ": OR needs a term on each side");
  std::erase_if(q.any_of, [](const std::vector<TextTerm>& c) { return c.empty(); });
  if (q.any_of.empty()) return InvalidArgument(shown + ": no word to search for");
  return q;
}

std::string Fts5String(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Fts5Conjunct(const std::vector<TextTerm>& conjunct) {
  std::string positive, negative;
  for (const TextTerm& t : conjunct) {
    if (t.negated) {
      negative += " NOT " + Fts5String(t.text);
    } else {
      if (!positive.empty()) positive += " AND ";
      positive += Fts5String(t.text);
    }
  }
  if (positive.empty()) return "";
  return "(" + positive + ")" + negative;
}

}  // namespace folio::query
