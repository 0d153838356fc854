// httplib::Request -> api::Request; see request_reader.h.
#include "http/request_reader.h"

#include <memory>

#include "api/ascii.h"
#include "api/auth/credentials.h"
#include "api/multipart.h"
#include "api/url.h"

namespace folio::http {
namespace {

bool IsValidHost(const std::string& host) {
  if (host.empty() || host.size() > 255) return false;
  for (char c : host) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']' ||
          c == '_')) {
      return false;
    }
  }
  return true;
}

// Collects the fields of a multipart body and streams its content part to an upload.
class FormCollector : public api::MultipartSink {
 public:
  FormCollector(api::Service& service, api::Request& out) : service_(service), out_(out) {}

  Status OnPartBegin(const api::PartHeader& header) override {
    in_file_ = api::EqualsIgnoreCase(header.name, "content") || header.has_file_name;
    if (in_file_) {
      if (out_.file || upload_) {
        return InvalidArgument("malformed multipart body: more than one content part ('" + header.name + "')");
      }
      upload_ = service_.OpenUpload(out_);
      file_.field_name = header.name;
      file_.file_name = header.file_name;
      file_.content_type = header.content_type;
      file_.size = 0;
    } else {
      field_ = api::FormField{header.name, ""};
    }
    return OkStatus();
  }

  Status OnPartData(std::string_view bytes) override {
    if (in_file_) {
      file_.size += bytes.size();
      return upload_->Write(bytes);
    }
    field_.value.append(bytes.data(), bytes.size());
    return OkStatus();
  }

  Status OnPartEnd() override {
    if (in_file_) {
      FOLIO_ASSIGN_OR_RETURN(file_.spooled_path, upload_->Finish());
      upload_.reset();
      out_.file = std::move(file_);
    } else if (!api::EqualsIgnoreCase(field_.name, "_charset_")) {
      out_.form_fields.push_back(std::move(field_));
    }
    return OkStatus();
  }

 private:
  api::Service& service_;
  api::Request& out_;
  bool in_file_ = false;
  std::unique_ptr<api::UploadSink> upload_;  // removes an unfinished upload when destroyed
  api::UploadedFile file_;
  api::FormField field_;
};

Status TooLarge(uint64_t max_body) {
  return Constraint("request body is larger than the limit of " + std::to_string(max_body) +
                    " bytes (--max-body)");
}

}  // namespace

Result<api::Request> ReadRequestHead(const httplib::Request& req) {
  api::Request out;
  out.method = req.method;
  const std::string& target = req.target.empty() ? req.path : req.target;
  const size_t q = target.find('?');
  const std::string_view raw_path = std::string_view(target).substr(0, q);
  // An absolute-form target ("http://host/a") is refused with the rest: its first
  // segment "http:" names no domain.
  FOLIO_ASSIGN_OR_RETURN(out.path, api::SplitPath(raw_path));
  if (q != std::string::npos) {
    FOLIO_ASSIGN_OR_RETURN(out.query, api::ParseFormUrlencoded(std::string_view(target).substr(q + 1), "query string"));
  }
  out.content_type = req.get_header_value("Content-Type");
  out.range = req.get_header_value("Range");
  out.authorization = req.get_header_value("Authorization");
  out.api_key = req.get_header_value("X-API-KEY");
  out.peer_loopback = api::auth::IsLoopbackAddress(req.remote_addr);
  const std::string host = req.get_header_value("Host");
  if (IsValidHost(host)) {
    out.base_url = "http://" + host;
  } else {
    const bool v6 = req.local_addr.find(':') != std::string::npos;
    out.base_url = "http://" + (v6 ? "[" + req.local_addr + "]" : req.local_addr) + ":" +
                   std::to_string(req.local_port);
  }
  return out;
}

BodyResult ReadRequestBody(const httplib::Request& req, const httplib::ContentReader& reader, api::Service& service,
                           uint64_t max_body, api::Request& out) {
  BodyResult result;
  // Refuse before reading when the client announces too much (CONTRACT §8).
  const bool chunked = api::EqualsIgnoreCase(req.get_header_value("Transfer-Encoding"), "chunked");
  if (req.has_header("Content-Length")) {
    const std::string length = req.get_header_value("Content-Length");
    char* end = nullptr;
    const unsigned long long n = std::strtoull(length.c_str(), &end, 10);
    if (end != length.c_str() && n > max_body) {
      result.too_large = true;
      result.status = TooLarge(max_body);
      return result;
    }
    if (n == 0 && !chunked) return result;
  } else if (!chunked) {
    return result;  // no body
  }
  uint64_t total = 0;
  const std::string media = api::MediaType(out.content_type);
  if (media != "multipart/form-data") {
    const bool ok = reader([&](const char* data, size_t n) {
      total += n;
      if (total > max_body) {
        result.too_large = true;
        return false;
      }
      out.body.append(data, n);
      return true;
    });
    if (result.too_large) {
      result.status = TooLarge(max_body);
    } else if (!ok) {
      result.status = InvalidArgument("the request body could not be read (connection closed or bad chunked encoding)");
    }
    return result;
  }

  auto boundary = api::MultipartBoundary(out.content_type);
  if (!boundary.ok()) {
    result.status = boundary.status();
    return result;
  }
  // cpp-httplib would parse multipart itself (without filename*, holding fields as it
  // likes); without the header it hands over the raw bytes, which we parse as they come.
  const_cast<httplib::Request&>(req).headers.erase("Content-Type");
  api::MultipartParser parser(*boundary);
  FormCollector collector(service, out);
  Status parse_status;
  const bool ok = reader([&](const char* data, size_t n) {
    total += n;
    if (total > max_body) {
      result.too_large = true;
      return false;
    }
    parse_status = parser.Feed(std::string_view(data, n), collector);
    return parse_status.ok();
  });
  if (result.too_large) {
    result.status = TooLarge(max_body);
  } else if (!parse_status.ok()) {
    result.status = parse_status;
  } else if (!ok) {
    result.status = InvalidArgument("the request body could not be read (connection closed or bad chunked encoding)");
  } else {
    result.status = parser.Finish();
  }
  return result;
}

}  // namespace folio::http
