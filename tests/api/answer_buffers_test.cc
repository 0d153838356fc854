// Buffers of large answers (src/api/answer_buffers.h) on their own: kept when large,
// given back empty with their capacity, bounded in bytes.
#include "api/answer_buffers.h"

#include <doctest/doctest.h>

#include <string>

namespace folio::api {
namespace {

std::string WithCapacity(size_t capacity) {
  std::string s;
  s.reserve(capacity);
  s.assign(100, 'x');
  return s;
}

TEST_CASE("AnswerBuffers: a large buffer given back is taken again, empty, with its capacity; a small one is not kept") {
  AnswerBuffers buffers(/*max_bytes=*/4u << 20);
  CHECK(buffers.Take().capacity() < AnswerBuffers::kMinBytes);  // nothing kept yet
  std::string small = WithCapacity(AnswerBuffers::kMinBytes / 2);
  buffers.Give(std::move(small));
  CHECK(buffers.Take().capacity() < AnswerBuffers::kMinBytes);
  std::string large = WithCapacity(1u << 20);
  const char* const bytes = large.data();
  buffers.Give(std::move(large));
  CHECK(large.empty());
  std::string taken = buffers.Take();
  CHECK(taken.empty());
  CHECK(taken.capacity() >= (1u << 20));
  CHECK(taken.data() == bytes);  // the very buffer: no fresh memory to fault in
  CHECK(buffers.Take().capacity() < AnswerBuffers::kMinBytes);  // taken once only
}

TEST_CASE("AnswerBuffers: keeps at most its bytes, the largest buffers first") {
  AnswerBuffers buffers(/*max_bytes=*/3u << 20);
  CHECK_FALSE(buffers.Keeps(4u << 20));
  buffers.Give(WithCapacity(4u << 20));  // larger than the bound alone: freed
  CHECK(buffers.Take().capacity() < AnswerBuffers::kMinBytes);
  buffers.Give(WithCapacity(1u << 20));
  buffers.Give(WithCapacity(1u << 20));
  // A third of 1 MiB and a 2 MiB one do not both fit: the smaller ones make room.
  buffers.Give(WithCapacity(2u << 20));
  const std::string a = buffers.Take();
  const std::string b = buffers.Take();
  const std::string c = buffers.Take();
  CHECK(a.capacity() >= (2u << 20));  // the largest first
  CHECK(b.capacity() >= (1u << 20));
  CHECK(b.capacity() < (2u << 20));
  CHECK(c.capacity() < AnswerBuffers::kMinBytes);  // one 1 MiB buffer was dropped
}

}  // namespace
}  // namespace folio::api
