// Extension -> MIME type table.
#include "repo/mime.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace folio::repo {

std::string MimeTypeForName(std::string_view file_name) {
  static const std::map<std::string, std::string, std::less<>> kTypes = {
      {"txt", "text/plain"},        {"md", "text/markdown"},       {"csv", "text/csv"},
      {"html", "text/html"},        {"htm", "text/html"},          {"css", "text/css"},
      {"js", "text/javascript"},    {"json", "application/json"},  {"xml", "application/xml"},
      {"pdf", "application/pdf"},   {"png", "image/png"},          {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},       {"gif", "image/gif"},          {"svg", "image/svg+xml"},
      {"webp", "image/webp"},       {"zip", "application/zip"},    {"gz", "application/gzip"},
      {"tar", "application/x-tar"}, {"mp3", "audio/mpeg"},         {"mp4", "video/mp4"},
      {"doc", "application/msword"},
      {"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
      {"xls", "application/vnd.ms-excel"},
      {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
      {"ppt", "application/vnd.ms-powerpoint"},
      {"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
      {"odt", "application/vnd.oasis.opendocument.text"},
      {"yaml", "application/yaml"}, {"yml", "application/yaml"},
  };
  size_t dot = file_name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == file_name.size()) return "application/octet-stream";
  std::string ext(file_name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  auto it = kTypes.find(ext);
  return it == kTypes.end() ? "application/octet-stream" : it->second;
}

}  // namespace folio::repo
