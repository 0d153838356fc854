// Buffers of large answers, written into again instead of freed.
// A buffer of megabytes is fresh memory when malloc maps it (folio serve maps every
// block of 256 KiB and more apart: cli/malloc_tuning.h), and fresh memory costs a page
// fault per 4 KiB written: for a getAllVersions answer of 2 MB, more than copying its
// bytes. The HTTP layer gives a large body's buffer back here once it is sent; an
// operation that writes a large answer takes one. Bounded in bytes; thread-safe.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace folio::api {

class AnswerBuffers {
 public:
  // A body whose buffer holds fewer bytes is not kept: malloc's heaps serve it well.
  static constexpr size_t kMinBytes = 256 * 1024;
  static constexpr size_t kDefaultMaxBytes = 8u << 20;

  // The buffers of the process (those of `folio serve`).
  static AnswerBuffers& Shared();

  // `max_bytes`: the capacity kept, in all, at most.
  explicit AnswerBuffers(size_t max_bytes = kDefaultMaxBytes) : max_bytes_(max_bytes) {}

  // An empty string to write an answer into: with the largest capacity given back, or
  // none when nothing is kept.
  std::string Take();
  // Takes `buffer` back (it is left empty): kept when its capacity is at least kMinBytes
  // and what is kept stays within max_bytes, freed otherwise.
  void Give(std::string&& buffer);
  // Whether Give would keep a buffer of this capacity (alone).
  bool Keeps(size_t capacity) const { return capacity >= kMinBytes && capacity <= max_bytes_; }

 private:
  const size_t max_bytes_;
  std::mutex mu_;
  std::vector<std::string> kept_;  // by capacity, largest last
  size_t bytes_ = 0;
};

}  // namespace folio::api
