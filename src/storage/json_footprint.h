// What a parsed JSON value takes in memory: the bound of the caches that keep parsed
// records (JsonCache). A record's size on disk is no measure of it: a parse takes five
// to eight times as many bytes (each value is a 16-byte node, each string or container
// a heap block of its own, each object member a key string and a node).
#pragma once

#include <cstddef>

#include "storage/json_file.h"

namespace folio::storage {

// An estimate of the heap bytes `json` holds, malloc's per-block overhead included:
// within about 20% of what glibc's allocator reports for a typical record (the test
// measures it). O(size of `json`).
size_t JsonFootprint(const Json& json);

}  // namespace folio::storage
