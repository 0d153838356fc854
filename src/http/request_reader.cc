// HTTP request -> api::Request; see request_reader.h.
#include "http/request_reader.h"

#include <algorithm>
#include <cctype>

#include "api/ascii.h"

namespace folio::http {
namespace {

bool IsValidHost(std::string_view host) {
  if (host.empty() || host.size() > 255) return false;
  for (char c : host) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']' ||
          c == '_')) {
      return false;
    }
  }
  return true;
}

Status TooLarge(uint64_t max_body) {
  return Constraint("request body is larger than the limit of " + std::to_string(max_body) + " bytes (--max-body)");
}

}  // namespace

Result<api::Request> ReadRequestHead(const HttpHead& head, const std::function<std::string()>& local_authority) {
  api::Request out;
  out.method = head.method;
  const std::string& target = head.target;
  const size_t q = target.find('?');
  const std::string_view raw_path = std::string_view(target).substr(0, q);
  // An absolute-form target ("http://host/a") is refused with the rest: its first
  // segment "http:" names no domain.
  FOLIO_ASSIGN_OR_RETURN(out.path, api::SplitPath(raw_path));
  if (q != std::string::npos) {
    FOLIO_ASSIGN_OR_RETURN(out.query, api::ParseFormUrlencoded(std::string_view(target).substr(q + 1), "query string"));
  }
  out.content_type = head.header("Content-Type");
  out.range = head.header("Range");
  out.fault = head.header("Folio-Fault");
  out.last_event_id = head.header("Last-Event-ID");
  out.from_script = api::EqualsIgnoreCase(head.header("X-Requested-With"), "XMLHttpRequest");
  const std::string_view host = head.header("Host");
  out.base_url = "http://";
  if (IsValidHost(host)) {
    out.base_url += host;
  } else {
    out.base_url += local_authority();
  }
  return out;
}

// Collects the fields of a multipart body within the field limits and streams its
// content part to an upload.
class BodyReader::FormCollector : public api::MultipartSink {
 public:
  FormCollector(api::Service& service, api::FormBudget& budget, api::Request& out)
      : service_(service), budget_(budget), out_(out) {}

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
      return OkStatus();
    }
    FOLIO_RETURN_IF_ERROR(budget_.BeginField());
    FOLIO_RETURN_IF_ERROR(budget_.AddName(header.name, header.name.size()));
    field_ = api::FormField{header.name, ""};
    return OkStatus();
  }

  Status OnPartData(std::string_view bytes) override {
    if (in_file_) {
      file_.size += bytes.size();
      return upload_->Write(bytes);
    }
    FOLIO_RETURN_IF_ERROR(budget_.AddValue(field_.name, bytes.size()));
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
  api::FormBudget& budget_;
  api::Request& out_;
  bool in_file_ = false;
  std::unique_ptr<api::UploadSink> upload_;  // removes an unfinished upload when destroyed
  api::UploadedFile file_;
  api::FormField field_;
};

BodyReader::BodyReader(api::Service& service, uint64_t max_body, uint64_t announced_length, api::Request& out)
    : out_(out),
      max_body_(max_body),
      encoding_(api::BodyEncodingOf(api::MediaType(out.content_type))),
      media_(api::MediaType(out.content_type)) {
  if (encoding_ == api::BodyEncoding::kJson) {
    // Growing by doubling would hold the old and the new buffer at once, and leave freed
    // ones to the allocator: with the length known, one buffer of that size does.
    out.body.reserve(static_cast<size_t>(std::min<uint64_t>(announced_length, api::kMaxFormBytes)));
  } else if (encoding_ == api::BodyEncoding::kUrlencoded) {
    urlencoded_ = std::make_unique<api::UrlencodedParser>(
        "form body", &budget_, [this](std::string name, std::string value) {
          out_.form_fields.push_back(api::FormField{std::move(name), std::move(value)});
        });
  } else if (encoding_ == api::BodyEncoding::kMultipart) {
    auto boundary = api::MultipartBoundary(out.content_type);
    if (boundary.ok()) {
      multipart_ = std::make_unique<api::MultipartParser>(*boundary);
      collector_ = std::make_unique<FormCollector>(service, budget_, out);
    } else {
      boundary_error_ = boundary.status();
    }
  }
}

BodyReader::~BodyReader() = default;

Status BodyReader::Write(std::string_view bytes) {
  size_ += bytes.size();
  if (size_ > max_body_) {
    too_large_ = true;
    return TooLarge(max_body_);
  }
  switch (encoding_) {
    case api::BodyEncoding::kJson:
      // A JSON body is all fields: bounded like them (it cannot carry a file).
      if (out_.body.size() + bytes.size() > api::kMaxFormBytes) {
        std::string().swap(out_.body);  // refused: what was read is not kept until the answer is sent
        return api::JsonBodyTooLarge();
      }
      out_.body.append(bytes);
      return OkStatus();
    case api::BodyEncoding::kUrlencoded:
      return urlencoded_->Feed(bytes);
    case api::BodyEncoding::kMultipart:
      if (!multipart_) return boundary_error_;
      return multipart_->Feed(bytes, *collector_);
    case api::BodyEncoding::kNone:
      return OkStatus();  // counted, not kept: refused by Finish
  }
  return OkStatus();
}

Status BodyReader::Finish() {
  switch (encoding_) {
    case api::BodyEncoding::kUrlencoded:
      return urlencoded_->Finish();
    case api::BodyEncoding::kMultipart:
      if (!multipart_) return size_ > 0 ? boundary_error_ : OkStatus();
      return size_ > 0 ? multipart_->Finish() : OkStatus();
    case api::BodyEncoding::kNone:
      return size_ > 0 ? api::UnsupportedBody(media_) : OkStatus();
    case api::BodyEncoding::kJson:
      return OkStatus();
  }
  return OkStatus();
}

}  // namespace folio::http
