// api::fixture::StateLock (src/api/fixture/state_lock.h): an exclusive locker that waits
// goes before shared lockers that come after it, so that overlapping shared lockers
// that never stop cannot hold it off.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "api/fixture/state_lock.h"

namespace folio::api::fixture {

TEST_CASE("StateLock: a waiting exclusive locker goes before the shared lockers that come after it") {
  StateLock lock;
  lock.lock_shared();  // a request in flight
  std::atomic<int> order{0};
  int writer_at = 0, reader_at = 0;
  std::thread writer([&] {
    lock.lock();
    writer_at = ++order;
    lock.unlock();
  });
  // Once the writer waits, new shared lockers are held off.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool refused = false;
  while (!refused && std::chrono::steady_clock::now() < deadline) {
    refused = !lock.try_lock_shared();
    if (!refused) lock.unlock_shared();
    std::this_thread::yield();
  }
  REQUIRE(refused);
  std::thread reader([&] {
    std::shared_lock<StateLock> shared(lock);
    reader_at = ++order;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(order == 0);  // the request in flight still holds it
  lock.unlock_shared();
  writer.join();
  reader.join();
  CHECK(writer_at == 1);
  CHECK(reader_at == 2);
  // Free again, both ways.
  CHECK(lock.try_lock());
  CHECK(!lock.try_lock_shared());
  lock.unlock();
  CHECK(lock.try_lock_shared());
  CHECK(!lock.try_lock());
  lock.unlock_shared();
}

TEST_CASE("StateLock: overlapping shared lockers that never stop do not hold off an exclusive one") {
  StateLock lock;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> rounds{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 6; ++t) {
    readers.emplace_back([&] {
      while (!stop) {
        std::shared_lock<StateLock> shared(lock);  // a request that takes a while
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        ++rounds;
      }
    });
  }
  while (rounds < 100) std::this_thread::yield();
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    { std::unique_lock<StateLock> exclusive(lock); }
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  }
  const uint64_t before = rounds;
  while (rounds < before + 100) std::this_thread::yield();  // and the readers go on
  stop = true;
  for (std::thread& t : readers) t.join();
}

}  // namespace folio::api::fixture
