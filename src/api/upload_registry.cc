// Content parts of requests in flight; see upload_registry.h.
#include "api/upload_registry.h"

namespace folio::api {

class SpoolingSink : public UploadSink {
 public:
  SpoolingSink(UploadRegistry& registry, std::shared_ptr<Repository> repo)
      : registry_(registry), repo_(std::move(repo)) {}

  Status Write(std::string_view bytes) override {
    if (!repo_) return OkStatus();  // discarding: the operation fails on its own terms
    if (!upload_ && memory_.size() + bytes.size() <= UploadRegistry::kMemoryLimit) {
      memory_.append(bytes);
      return OkStatus();
    }
    if (!upload_) {
      FOLIO_ASSIGN_OR_RETURN(upload_, repo_->NewUpload());
      FOLIO_RETURN_IF_ERROR(upload_->Write(memory_));
      memory_.clear();
      memory_.shrink_to_fit();
    }
    return upload_->Write(bytes);
  }

  Result<std::string> Finish() override {
    if (!repo_) return std::string();
    UploadedContent c;
    if (upload_) {
      FOLIO_RETURN_IF_ERROR(upload_->Finish());
      c.file = std::move(upload_);
    } else {
      c.bytes = std::move(memory_);
    }
    return registry_.Register(std::move(c));
  }

 private:
  UploadRegistry& registry_;
  std::shared_ptr<Repository> repo_;
  std::string memory_;
  std::unique_ptr<Upload> upload_;  // removed when the sink goes unfinished
};

std::unique_ptr<UploadSink> UploadRegistry::OpenSink(std::shared_ptr<Repository> repo) {
  return std::make_unique<SpoolingSink>(*this, std::move(repo));
}

std::string UploadRegistry::Register(UploadedContent content) {
  std::lock_guard<std::mutex> lock(mu_);
  // A file's key is its path (what logs and errors show); memory gets a name of its own.
  std::string key = content.file ? content.file->path() : "memory:" + std::to_string(++next_);
  parts_[key] = std::make_unique<UploadedContent>(std::move(content));
  return key;
}

UploadedContent* UploadRegistry::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = parts_.find(key);
  return it == parts_.end() ? nullptr : it->second.get();
}

void UploadRegistry::Release(const std::string& key) {
  std::unique_ptr<UploadedContent> gone;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = parts_.find(key);
    if (it == parts_.end()) return;
    gone = std::move(it->second);
    parts_.erase(it);
  }
  // Destroyed outside the lock: removing a file takes a system call.
}

}  // namespace folio::api
