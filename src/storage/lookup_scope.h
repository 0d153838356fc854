// Rule R1's mechanical half (docs/STORAGE.md §10, "reads never write"): a thread that
// runs a lookup (repo's Locator, Listings, ObjectBuilder) holds a LookupScope, and the
// Committer refuses to begin a change under one (kRuntime; an assertion in a debug
// build). What a lookup finds to reconcile it records instead (repo/hand_edits/seen_edits.h).
//
// Thread-safety: a scope belongs to the thread that made it; scopes nest.
#pragma once

#include <atomic>

namespace folio::storage {

class LookupScope {
 public:
  LookupScope() { ++depth_; }
  ~LookupScope() { --depth_; }
  LookupScope(const LookupScope&) = delete;
  LookupScope& operator=(const LookupScope&) = delete;

  // True while the calling thread runs a lookup.
  static bool Active() { return depth_ > 0; }
  // Whether a change begun under a scope also fails an assertion (debug builds): off
  // for a test that proves the refusal itself.
  static bool Asserts() { return asserts_.load(std::memory_order_relaxed); }
  static void SetAssertsForTest(bool on) { asserts_.store(on, std::memory_order_relaxed); }

 private:
  static inline thread_local int depth_ = 0;
  static inline std::atomic<bool> asserts_{true};
};

}  // namespace folio::storage
