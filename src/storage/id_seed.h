// Seeded object ids for `folio serve --deterministic-ids SEED` (docs/API.md §14.5); the
// ids themselves are made by NewId (ids.h).
#pragma once

#include <cstdint>
#include <optional>

namespace folio::storage {

// From now on the ids of objects (every prefix but the t, u and x of temporary, upload
// and trash names) follow from `seed` and how many ids of that prefix were made before,
// from the seed's first id (nullopt: random ids again); callers skip an id that exists
// (repo::Staging::NewObjectId). Thread-safe.
void SetIdSeed(std::optional<uint64_t> seed);
// With a seed set, makes the next ids the seed's first again (after a reset or restore:
// a fixture script run again gets the same ids). Thread-safe.
void RestartSeededIds();

}  // namespace folio::storage
