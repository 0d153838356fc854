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
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = storage::Utf8SequenceLength(s, i);
    if (n == 0) {
      ++i;  // not a well-formed sequence: skip its first byte; what follows is looked at again
      continue;
    }
    if (n > 1 || s[i] != '\0') out.append(s.substr(i, n));  // NUL would end FTS5's text
    i += n;
  }
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
