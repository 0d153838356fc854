// libmagic behind a MimeSniffer; see mime_sniffer.h.
#include "cli/mime_sniffer.h"

#include <magic.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace folio::cli {
namespace {

class Magic {
 public:
  Magic() : cookie_(::magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR)) {
    if (cookie_ != nullptr && ::magic_load(cookie_, nullptr) != 0) {
      ::magic_close(cookie_);
      cookie_ = nullptr;
    }
  }
  ~Magic() {
    if (cookie_ != nullptr) ::magic_close(cookie_);
  }
  Magic(const Magic&) = delete;
  Magic& operator=(const Magic&) = delete;

  bool loaded() const { return cookie_ != nullptr; }
  std::mutex& mu() { return mu_; }

  // Requires mu().
  std::string TypeOfLocked(std::string_view head) {
    if (cookie_ == nullptr || head.empty()) return "";
    const char* type = ::magic_buffer(cookie_, head.data(), head.size());
    if (type == nullptr) return "";
    std::string t(type);
    // Names for "nothing known" rather than a type.
    if (t == "application/octet-stream" || t == "application/x-empty" || t == "inode/x-empty") return "";
    return t;
  }

 private:
  magic_t cookie_;
  std::mutex mu_;
};

// Handles for callers that sniff at the same time (the engine sniffs a batch on every
// core): a libmagic handle is not thread-safe, and loading one costs a few milliseconds
// and its database's memory, so they are made only as concurrent callers need them, up
// to one per core (at most kMaxHandles).
class MagicPool {
 public:
  std::string TypeOf(std::string_view head) {
    if (head.empty()) return "";
    Magic* handle = nullptr;
    std::unique_lock<std::mutex> handle_lock;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& m : handles_) {
        std::unique_lock<std::mutex> l(m->mu(), std::try_to_lock);
        if (l.owns_lock()) {
          handle = m.get();
          handle_lock = std::move(l);
          break;
        }
      }
      if (handle == nullptr && handles_.size() < max_handles_) {
        handles_.push_back(std::make_unique<Magic>());
        handle = handles_.back().get();
        handle_lock = std::unique_lock<std::mutex>(handle->mu());
      }
      if (handle == nullptr) handle = handles_.front().get();  // all busy: wait for one
    }
    if (!handle_lock.owns_lock()) handle_lock = std::unique_lock<std::mutex>(handle->mu());
    return handle->TypeOfLocked(head);
  }

 private:
  static constexpr size_t kMaxHandles = 4;
  std::mutex mu_;
  std::vector<std::unique_ptr<Magic>> handles_;  // guarded by mu_; never shrinks
  const size_t max_handles_ = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, kMaxHandles);
};

}  // namespace

MimeSniffer MakeLibmagicSniffer() {
  auto pool = std::make_shared<MagicPool>();
  return [pool](std::string_view head) { return pool->TypeOf(head); };
}

}  // namespace folio::cli
