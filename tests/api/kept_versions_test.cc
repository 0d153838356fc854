// Kept getAllVersions JSON (src/api/kept_versions.h) on its own: given for an equal stamp
// only, shared rather than copied, and bounded in bytes.
#include "api/kept_versions.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

namespace folio::api {
namespace {

TEST_CASE("KeptVersions: gives what was kept for an equal stamp only, shared and unchanged while held") {
  KeptVersions kept(/*max_bytes=*/1 << 20);
  CHECK(kept.Find("r/v1", "s1") == nullptr);
  kept.Keep("r/v1", "s1", "{\"one\":1}");
  const std::shared_ptr<const std::string> found = kept.Find("r/v1", "s1");
  REQUIRE(found != nullptr);
  CHECK(*found == "{\"one\":1}");
  CHECK(kept.Find("r/v1", "s2") == nullptr);  // the record changed: a new stamp
  CHECK(kept.Find("r/v2", "s1") == nullptr);
  CHECK(kept.Find("r/v1", "s1") == found);  // the same bytes, not a copy

  // Replaced under the same key: the holder's JSON stays as it was.
  kept.Keep("r/v1", "s3", "{\"three\":3}");
  CHECK(*found == "{\"one\":1}");
  CHECK(kept.Find("r/v1", "s1") == nullptr);
  REQUIRE(kept.Find("r/v1", "s3") != nullptr);
  CHECK(*kept.Find("r/v1", "s3") == "{\"three\":3}");
}

TEST_CASE("KeptVersions: stays within its bytes; what does not fit is not kept") {
  // Each entry costs its key, stamp and JSON and 64 bytes more: 167 bytes here.
  KeptVersions kept(/*max_bytes=*/400);
  const std::string json(100, 'x');
  kept.Keep("k1", "s", json);
  kept.Keep("k2", "s", json);
  CHECK(kept.Find("k1", "s") != nullptr);
  CHECK(kept.Find("k2", "s") != nullptr);
  // A third would pass the bound: everything kept before is dropped first.
  kept.Keep("k3", "s", json);
  CHECK(kept.Find("k1", "s") == nullptr);
  CHECK(kept.Find("k2", "s") == nullptr);
  CHECK(kept.Find("k3", "s") != nullptr);
  // Larger than the bound alone: not kept, and what was kept stays.
  kept.Keep("big", "s", std::string(400, 'y'));
  CHECK(kept.Find("big", "s") == nullptr);
  CHECK(kept.Find("k3", "s") != nullptr);
}

}  // namespace
}  // namespace folio::api
