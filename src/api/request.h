// api::Request: an HTTP request as the request layer sees it, already taken apart by
// src/http (which alone knows cpp-httplib). Plain data; no parsing happens here
// beyond MediaType().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace folio::api {

// One non-file field of a multipart/form-data body, in body order.
struct FormField {
  std::string name;
  std::string value;  // UTF-8 text (multipart fields default to UTF-8, docs/API.md §3.3)
};

// The content part of a multipart body, streamed to disk by src/http as it arrived
// (into an upload file of the addressed repository, see Service::OpenUpload).
struct UploadedFile {
  std::string field_name;    // usually "content"
  std::string file_name;     // as sent, RFC 5987 `filename*` already decoded; may be empty
  std::string content_type;  // the part's Content-Type; may be empty
  // Where the bytes are: a data-directory-relative upload file (Repository::NewUpload),
  // or "" when the request addresses no repository (the bytes were discarded). The
  // Service removes the file after the request unless an operation consumed it.
  std::string spooled_path;
  uint64_t size = 0;         // bytes in spooled_path
};

struct Request {
  std::string method;             // "GET", "POST", ... (upper case)
  std::vector<std::string> path;  // percent-decoded segments (see SplitPath in url.h)
  // Query parameters in URL order, names and values percent-decoded ('+' is a space).
  std::vector<std::pair<std::string, std::string>> query;
  std::string content_type;  // the Content-Type header as sent; may be empty
  // The body for application/json and application/x-www-form-urlencoded requests.
  // Empty for multipart requests: their fields are in form_fields and their file in
  // file. A part named "content" is always the file, never a form field.
  std::string body;
  std::vector<FormField> form_fields;
  std::optional<UploadedFile> file;
  // Credentials as sent, for src/api/auth: the Authorization and X-API-KEY header
  // values ("" when absent), and whether the client connects from a loopback address
  // (127.0.0.0/8, ::1), and that address (numeric; "" when unknown: failed logins are
  // slowed down per user and address). The api layer decides who the caller is.
  std::string authorization;
  std::string api_key;
  bool peer_loopback = false;
  std::string peer_address;
  // The request carries `X-Requested-With: XMLHttpRequest`: a script of a web page (the
  // browse UI's) that signs in with a form of its own. Its 401 has no WWW-Authenticate
  // challenge, which a browser would meet with its own login dialog.
  bool from_script = false;
  // "http://host:port" as the client addressed the server (from the Host header), the
  // base of the absolute URLs in responses (repositoryUrl, rootFolderUrl, Location).
  std::string base_url;
  std::string range;  // the Range header as sent; may be empty
  // The test-fixture headers as sent ("" when absent; docs/API.md §14): Folio-Fault, and
  // Last-Event-ID of GET /-/events.
  std::string fault;
  std::string last_event_id;
};

// The media type of a Content-Type header value: lowercased, without parameters or
// surrounding spaces ("Application/JSON; charset=UTF-8" -> "application/json").
// "" when `content_type` is empty.
std::string MediaType(std::string_view content_type);

}  // namespace folio::api
