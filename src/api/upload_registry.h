// The content parts of requests in flight. src/http streams a part into a sink; small
// parts stay in memory (they go into the commit log inline, with no file at all), larger
// ones spill into an upload of the addressed repository (linked into place, never
// copied). The operation finds the part by the key the sink returned; the request's end
// releases it (an upload no change consumed is removed).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "folio/repository.h"

namespace folio::api {

// Where src/http streams the content part of a multipart body as it arrives.
class UploadSink {
 public:
  virtual ~UploadSink() = default;
  virtual Status Write(std::string_view bytes) = 0;
  // Finishes the part (syncs a file); returns the key to put in Request::file->
  // spooled_path ("" for a sink that discards).
  virtual Result<std::string> Finish() = 0;
};

// A finished content part.
struct UploadedContent {
  std::optional<std::string> bytes;  // held in memory
  std::unique_ptr<Upload> file;      // or spilled into an upload
};

class UploadRegistry {
 public:
  // Parts up to this size stay in memory.
  static constexpr size_t kMemoryLimit = 64 * 1024;

  // A sink that keeps a part in memory, spilling into a new upload of `repo` when it
  // grows past kMemoryLimit. A null `repo` discards the bytes.
  std::unique_ptr<UploadSink> OpenSink(std::shared_ptr<Repository> repo);
  // The finished part of `key`, or nullptr. Valid until Release(key).
  UploadedContent* Find(const std::string& key);
  // Forgets the part of `key` (an upload no change consumed is removed).
  void Release(const std::string& key);

 private:
  friend class SpoolingSink;
  std::string Register(UploadedContent content);

  std::mutex mu_;
  uint64_t next_ = 0;
  std::map<std::string, std::unique_ptr<UploadedContent>> parts_;
};

}  // namespace folio::api
