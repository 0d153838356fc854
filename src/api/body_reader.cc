// A request's body -> api::Request; see body_reader.h.
#include "api/body_reader.h"

#include <algorithm>

#include "api/ascii.h"

namespace folio::api {

// Collects the fields of a multipart body within the field limits and streams its
// content part to an upload.
class BodyReader::FormCollector : public MultipartSink {
 public:
  FormCollector(Service& service, FormBudget& budget, Request& out)
      : service_(service), budget_(budget), out_(out) {}

  Status OnPartBegin(const PartHeader& header) override {
    in_file_ = EqualsIgnoreCase(header.name, "content") || header.has_file_name;
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
    field_ = FormField{header.name, ""};
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
    } else if (!EqualsIgnoreCase(field_.name, "_charset_")) {
      out_.form_fields.push_back(std::move(field_));
    }
    return OkStatus();
  }

 private:
  Service& service_;
  FormBudget& budget_;
  Request& out_;
  bool in_file_ = false;
  std::unique_ptr<UploadSink> upload_;  // removes an unfinished upload when destroyed
  UploadedFile file_;
  FormField field_;
};

BodyReader::BodyReader(Service& service, uint64_t max_body, uint64_t announced_length, Request& out)
    : out_(out),
      max_body_(max_body),
      encoding_(BodyEncodingOf(MediaType(out.content_type))),
      media_(MediaType(out.content_type)) {
  if (encoding_ == BodyEncoding::kJson) {
    // Growing by doubling would hold the old and the new buffer at once, and leave freed
    // ones to the allocator: with the length known, one buffer of that size does.
    out.body.reserve(static_cast<size_t>(std::min<uint64_t>(announced_length, kMaxFormBytes)));
  } else if (encoding_ == BodyEncoding::kUrlencoded) {
    urlencoded_ = std::make_unique<UrlencodedParser>(
        "form body", &budget_, [this](std::string name, std::string value) {
          out_.form_fields.push_back(FormField{std::move(name), std::move(value)});
        });
  } else if (encoding_ == BodyEncoding::kMultipart) {
    auto boundary = MultipartBoundary(out.content_type);
    if (boundary.ok()) {
      multipart_ = std::make_unique<MultipartParser>(*boundary);
      collector_ = std::make_unique<FormCollector>(service, budget_, out);
    } else {
      boundary_error_ = boundary.status();
    }
  }
}

BodyReader::~BodyReader() = default;

Status BodyTooLarge(uint64_t max_body) {
  return Constraint("request body is larger than the limit of " + std::to_string(max_body) + " bytes (--max-body)");
}

Status BodyReader::Write(std::string_view bytes) {
  size_ += bytes.size();
  if (size_ > max_body_) {
    too_large_ = true;
    return BodyTooLarge(max_body_);
  }
  switch (encoding_) {
    case BodyEncoding::kJson:
      // A JSON body is all fields: bounded like them (it cannot carry a file).
      if (out_.body.size() + bytes.size() > kMaxFormBytes) {
        std::string().swap(out_.body);  // refused: what was read is not kept until the answer is sent
        return JsonBodyTooLarge();
      }
      out_.body.append(bytes);
      return OkStatus();
    case BodyEncoding::kUrlencoded:
      return urlencoded_->Feed(bytes);
    case BodyEncoding::kMultipart:
      if (!multipart_) return boundary_error_;
      return multipart_->Feed(bytes, *collector_);
    case BodyEncoding::kNone:
      return OkStatus();  // counted, not kept: refused by Finish
  }
  return OkStatus();
}

Status BodyReader::Finish() {
  switch (encoding_) {
    case BodyEncoding::kUrlencoded:
      return urlencoded_->Finish();
    case BodyEncoding::kMultipart:
      if (!multipart_) return size_ > 0 ? boundary_error_ : OkStatus();
      return size_ > 0 ? multipart_->Finish() : OkStatus();
    case BodyEncoding::kNone:
      return size_ > 0 ? UnsupportedBody(media_) : OkStatus();
    case BodyEncoding::kJson:
      return OkStatus();
  }
  return OkStatus();
}

}  // namespace folio::api
