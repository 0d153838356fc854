// Text extraction for the full-text index; see text_extract.h.
#include "repo/query/text_extract.h"

#include <algorithm>
#include <array>

#include "storage/utf8.h"

namespace folio::query {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

constexpr std::array<std::string_view, 17> kTextualMime = {
    "application/json",       "application/xml",         "application/javascript",    "application/x-javascript",
    "application/ecmascript", "application/x-sh",        "application/x-shellscript", "application/sql",
    "application/x-yaml",     "application/yaml",        "application/toml",          "application/x-tex",
    "application/x-latex",    "application/x-httpd-php", "application/csv",           "application/x-python",
    "application/x-perl"};

constexpr std::array<std::string_view, 72> kTextualExtensions = {
    "txt",  "text",       "md",     "markdown", "csv",   "tsv",     "json", "jsonl", "ndjson", "xml",  "yaml", "yml",
    "toml", "ini",        "cfg",    "conf",     "log",   "c",       "h",    "cc",    "cpp",    "cxx",  "hpp",  "hh",
    "hxx",  "py",         "js",     "mjs",      "cjs",   "ts",      "tsx",  "jsx",   "java",   "go",   "rs",   "rb",
    "php",  "pl",         "pm",     "sh",       "bash",  "zsh",     "fish", "sql",   "css",    "scss", "less", "html",
    "htm",  "svg",        "tex",    "rst",      "adoc",  "kt",      "kts",  "swift", "scala",  "lua",  "r",    "cs",
    "vb",   "properties", "gradle", "cmake",    "proto", "graphql", "vue",  "el",    "clj",    "hs",   "erl",  "ex"};

}  // namespace

bool IsTextual(std::string_view mime_type, std::string_view file_name) {
  std::string mime = Lower(mime_type.substr(0, mime_type.find(';')));
  while (!mime.empty() && mime.back() == ' ') mime.pop_back();
  if (mime.starts_with("text/") || mime.ends_with("+json") || mime.ends_with("+xml")) return true;
  if (std::find(kTextualMime.begin(), kTextualMime.end(), mime) != kTextualMime.end()) return true;
  const std::string name = Lower(file_name);
  if (name == "makefile" || name == "dockerfile" || name == "readme" || name == "license") return true;
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string_view ext = std::string_view(name).substr(dot + 1);
  return std::find(kTextualExtensions.begin(), kTextualExtensions.end(), ext) != kTextualExtensions.end();
}

std::string ValidUtf8(std::string_view s) {
  // Bytes are copied in runs, not one sequence at a time: a document is almost always
  // valid text, and the index's first build reads every document (this was 6% of a
  // server's samples while it built beside a listing).
  std::string out;
  out.reserve(s.size());
  size_t run = 0;  // where the bytes kept as they are begin
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c != 0 && c < 0x80) {  // ASCII (NUL would end FTS5's text)
      ++i;
      continue;
    }
    const size_t n = c == 0 ? 0 : storage::Utf8SequenceLength(s, i);
    if (n > 0) {
      i += n;
      continue;
    }
    // NUL, or not a well-formed sequence: its first byte is dropped; what follows is
    // looked at again.
    out.append(s.substr(run, i - run));
    run = ++i;
  }
  out.append(s.substr(run));
  return out;
}

std::string ExtractText(Repository& repo, const ObjectData& doc) {
  if (!doc.content || doc.content->length == 0) return "";
  if (!IsTextual(doc.content->mime_type, doc.content->file_name.empty() ? doc.name : doc.content->file_name) &&
      !IsTextual("", doc.name)) {
    return "";
  }
  auto stream = repo.OpenContent(doc);  // the version is built already: no second lookup
  if (!stream.ok()) return "";
  std::string bytes;
  bytes.resize(std::min<uint64_t>(kMaxIndexedTextBytes, doc.content->length));
  size_t got = 0;
  while (got < bytes.size()) {
    auto n = stream->file->Read(bytes.data() + got, bytes.size() - got);
    if (!n.ok() || *n == 0) break;
    got += *n;
  }
  bytes.resize(got);
  return ValidUtf8(bytes);
}

}  // namespace folio::query
