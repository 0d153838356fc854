// Reading a repository's change log in tests.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "folio/repository.h"

namespace folio::testing {

// "type object-id" of each change-log event after token `after` (up to 1,000).
inline std::vector<std::string> EventsAfter(Repository& r, uint64_t after) {
  auto page = r.ReadChanges(after + 1, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  std::vector<std::string> out;
  for (const ChangeEventInfo& e : page->events) out.push_back(e.type + " " + e.object_id);
  return out;
}

}  // namespace folio::testing
