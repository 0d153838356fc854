// The response cache (src/api/response_cache.h) on its own: answers kept while their
// check passes, dropped once it fails, and at most the configured number of them.
#include "api/response_cache.h"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>

namespace folio::api {
namespace {

TEST_CASE("ResponseCache: keeps answers with a check, drops them once stale, stays bounded") {
  ResponseCache cache(/*max_entries=*/32, /*max_body=*/100);
  auto valid = std::make_shared<std::atomic<bool>>(true);
  ResponseCache::Answer a;
  a.content_type = "application/json";
  a.body = "{\"x\":1}";
  a.operation = "object";
  a.still_valid = [valid] { return valid->load(); };
  cache.Put("/a", a);
  auto found = cache.Find("/a");
  REQUIRE(found != nullptr);
  CHECK(found->body == "{\"x\":1}");
  CHECK(found->operation == "object");
  CHECK(cache.hits() == 1);
  CHECK(cache.Find("/b") == nullptr);
  CHECK(cache.misses() == 1);
  *valid = false;
  CHECK(cache.Find("/a") == nullptr);  // stale: dropped
  CHECK(cache.size() == 0);
  *valid = true;
  CHECK(cache.Find("/a") == nullptr);  // gone for good, even if the check would pass now

  ResponseCache::Answer unchecked = a;
  unchecked.still_valid = nullptr;
  cache.Put("/u", unchecked);
  ResponseCache::Answer large = a;
  large.body.assign(101, 'x');
  cache.Put("/l", large);
  CHECK(cache.size() == 0);

  for (int i = 0; i < 1000; ++i) cache.Put("/n" + std::to_string(i), a);
  CHECK(cache.size() <= 32);
  CHECK(cache.size() >= 16);
}

}  // namespace
}  // namespace folio::api
