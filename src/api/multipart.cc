// Streaming multipart/form-data parsing; see multipart.h.
#include "api/multipart.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "api/ascii.h"
#include "api/url.h"

namespace folio::api {
namespace {

constexpr size_t kMaxHeaderBytes = 16 * 1024;

Status Malformed(std::string_view why) { return InvalidArgument("malformed multipart body: " + std::string(why)); }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Splits `value` ("form-data; name=\"a\"; filename*=UTF-8''b") into its parameters;
// quoted strings may hold ';' and backslash escapes.
std::vector<std::pair<std::string, std::string>> HeaderParams(std::string_view value) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t i = value.find(';');
  while (i != std::string_view::npos && i < value.size()) {
    ++i;  // past ';'
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
    const size_t eq = value.find('=', i);
    const size_t semi = value.find(';', i);
    if (eq == std::string_view::npos || (semi != std::string_view::npos && semi < eq)) {
      i = semi;
      continue;
    }
    std::string key = AsciiToLower(Trim(value.substr(i, eq - i)));
    size_t j = eq + 1;
    while (j < value.size() && (value[j] == ' ' || value[j] == '\t')) ++j;
    std::string v;
    if (j < value.size() && value[j] == '"') {
      ++j;
      while (j < value.size() && value[j] != '"') {
        // Browsers send backslashes in Windows paths unescaped; only \" and \\ are escapes.
        if (value[j] == '\\' && j + 1 < value.size() && (value[j + 1] == '"' || value[j + 1] == '\\')) ++j;
        v.push_back(value[j++]);
      }
      i = value.find(';', j);
    } else {
      const size_t end = value.find(';', j);
      v = std::string(Trim(value.substr(j, end == std::string_view::npos ? std::string_view::npos : end - j)));
      i = end;
    }
    out.emplace_back(std::move(key), std::move(v));
  }
  return out;
}

std::string LastPathSegment(std::string name) {
  const size_t slash = name.find_last_of("/\\");
  if (slash != std::string::npos) name = name.substr(slash + 1);
  return name;
}

}  // namespace

Result<std::string> MultipartBoundary(std::string_view content_type) {
  for (auto& [key, value] : HeaderParams(content_type)) {
    if (key != "boundary") continue;
    if (value.empty() || value.size() > 70) {
      return InvalidArgument("malformed multipart body: invalid boundary " + QuoteForMessage(value));
    }
    return value;
  }
  return InvalidArgument("malformed multipart body: the Content-Type has no boundary");
}

MultipartParser::MultipartParser(std::string boundary) : delimiter_("\r\n--" + boundary) {
  // The first boundary may start the body: pretend a line break precedes it.
  buffer_ = "\r\n";
}

Status MultipartParser::ParseHeaders(std::string_view block, PartHeader& header) const {
  bool has_disposition = false;
  size_t pos = 0;
  while (pos < block.size()) {
    size_t eol = block.find("\r\n", pos);
    if (eol == std::string_view::npos) eol = block.size();
    const std::string_view line = block.substr(pos, eol - pos);
    pos = eol + 2;
    if (line.empty()) continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return Malformed("part header line without ':'");
    const std::string_view name = Trim(line.substr(0, colon));
    const std::string_view value = Trim(line.substr(colon + 1));
    if (EqualsIgnoreCase(name, "Content-Disposition")) {
      has_disposition = true;
      if (!StartsWithIgnoreCase(value, "form-data")) {
        return Malformed("part Content-Disposition is not form-data");
      }
      std::string plain_file_name;
      bool extended = false;
      for (auto& [key, v] : HeaderParams(value)) {
        if (key == "name") {
          header.name = v;
        } else if (key == "filename") {
          header.has_file_name = true;
          plain_file_name = v;
        } else if (key == "filename*") {
          auto decoded = DecodeRfc5987(v);
          if (!decoded.ok()) return Malformed("part filename*: " + decoded.status().message());
          header.has_file_name = true;
          header.file_name = *decoded;
          extended = true;
        }
      }
      if (!extended) header.file_name = plain_file_name;
      header.file_name = LastPathSegment(header.file_name);
    } else if (EqualsIgnoreCase(name, "Content-Type")) {
      header.content_type = std::string(value);
    }
  }
  if (!has_disposition) return Malformed("a part has no Content-Disposition header");
  if (header.name.empty() && !header.has_file_name) return Malformed("a part has no name");
  if (!IsValidUtf8(header.name) || !IsValidUtf8(header.file_name)) {
    return Malformed("invalid UTF-8 in a part's name or file name");
  }
  return OkStatus();
}

Status MultipartParser::Feed(std::string_view bytes, MultipartSink& sink) {
  if (state_ == State::kDone) return OkStatus();  // the epilogue is ignored
  buffer_.append(bytes.data(), bytes.size());
  size_t pos = 0;
  Status status;
  while (true) {
    const std::string_view rest = std::string_view(buffer_).substr(pos);
    if (state_ == State::kPreamble || state_ == State::kBody) {
      const size_t hit = rest.find(delimiter_);
      if (hit == std::string_view::npos) {
        // Keep what could be the start of a delimiter; pass the rest on.
        const size_t keep = std::min(rest.size(), delimiter_.size() - 1);
        if (state_ == State::kBody && rest.size() > keep) {
          status = sink.OnPartData(rest.substr(0, rest.size() - keep));
          if (!status.ok()) return status;
        }
        pos += rest.size() - keep;
        break;
      }
      if (state_ == State::kBody) {
        if (hit > 0) {
          status = sink.OnPartData(rest.substr(0, hit));
          if (!status.ok()) return status;
        }
        status = sink.OnPartEnd();
        if (!status.ok()) return status;
      }
      pos += hit + delimiter_.size();
      state_ = State::kAfterBoundary;
    } else if (state_ == State::kAfterBoundary) {
      // "--" ends the body; otherwise optional padding, then CRLF.
      if (rest.size() < 2) break;
      if (rest.substr(0, 2) == "--") {
        state_ = State::kDone;
        pos = buffer_.size();
        break;
      }
      const size_t eol = rest.find("\r\n");
      if (eol == std::string_view::npos) {
        if (rest.size() > 256) return Malformed("garbage after a boundary");
        break;
      }
      if (!Trim(rest.substr(0, eol)).empty()) return Malformed("garbage after a boundary");
      pos += eol + 2;
      state_ = State::kHeaders;
    } else if (state_ == State::kHeaders) {
      size_t end = rest.find("\r\n\r\n");
      size_t skip = 4;
      if (rest.substr(0, 2) == "\r\n") {  // a part without headers
        end = 0;
        skip = 2;
      }
      if (end == std::string_view::npos) {
        if (rest.size() > kMaxHeaderBytes) return Malformed("part headers longer than 16 KiB");
        break;
      }
      if (end > kMaxHeaderBytes) return Malformed("part headers longer than 16 KiB");
      PartHeader header;
      status = ParseHeaders(rest.substr(0, end), header);
      if (!status.ok()) return status;
      status = sink.OnPartBegin(header);
      if (!status.ok()) return status;
      pos += end + skip;
      state_ = State::kBody;
    } else {
      pos = buffer_.size();
      break;
    }
  }
  buffer_.erase(0, pos);
  return OkStatus();
}

Status MultipartParser::Finish() {
  if (state_ != State::kDone) return Malformed("the closing boundary is missing");
  return OkStatus();
}

}  // namespace folio::api
