// Buffers of large answers; see answer_buffers.h.
#include "api/answer_buffers.h"

#include <algorithm>
#include <utility>

namespace folio::api {

AnswerBuffers& AnswerBuffers::Shared() {
  static AnswerBuffers buffers;
  return buffers;
}

std::string AnswerBuffers::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_.empty()) return std::string();
  std::string buffer = std::move(kept_.back());
  kept_.pop_back();
  bytes_ -= buffer.capacity();
  buffer.clear();
  return buffer;
}

void AnswerBuffers::Give(std::string&& buffer) {
  std::string given = std::move(buffer);
  buffer.clear();
  const size_t capacity = given.capacity();
  if (!Keeps(capacity)) return;
  std::lock_guard<std::mutex> lock(mu_);
  // Room is made by dropping smaller buffers; a buffer larger than all kept is worth more.
  while (bytes_ + capacity > max_bytes_ && !kept_.empty() && kept_.front().capacity() <= capacity) {
    bytes_ -= kept_.front().capacity();
    kept_.erase(kept_.begin());
  }
  if (bytes_ + capacity > max_bytes_) return;
  given.clear();
  const auto at = std::upper_bound(kept_.begin(), kept_.end(), capacity,
                                   [](size_t c, const std::string& b) { return c < b.capacity(); });
  kept_.insert(at, std::move(given));
  bytes_ += capacity;
}

}  // namespace folio::api
