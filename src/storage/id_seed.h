// Seeded object ids for `folio serve --deterministic-ids SEED` (docs/API.md §14.5); the
// ids themselves are made by NewId (ids.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace folio::storage {

// From now on the ids of objects (every prefix but the t, u and x of temporary, upload
// and trash names) follow from `seed` and how many ids of that prefix were made before,
// from the seed's first id (nullopt: random ids again); callers skip an id that exists
// (repo::changes::Staging::NewObjectId). Thread-safe.
void SetIdSeed(std::optional<uint64_t> seed);
// With a seed set, makes the next ids the seed's first again (after a reset or restore:
// a fixture script run again gets the same ids). Thread-safe.
void RestartSeededIds();

// The seeded ids of one change (storage::Committer::Run): a staging may run more than
// once (after a conflict with a change in flight, after bookkeeping it asked for), and
// whether it does depends on other threads' timing. Each run after Rewind() is handed
// the ids the runs before drew, in the same order, before new ones are drawn, so that
// the ids a change gets do not depend on how often it was staged. Without a seed it
// does nothing. Scopes nest on a thread (bookkeeping run between two stagings has its
// own); one belongs to the thread that made it.
//
// A scope made kChained also takes, once its own ids are handed out, those its enclosing
// scope hands out again, and records what it draws there too: a request run again
// whole (repo::hand_edits::Reconciler, after taking in a hand edit its write met) keeps the ids of
// its first run across the committer's own scopes. kRoot starts afresh: bookkeeping run
// between two runs of a request draws ids of its own, never the request's.
class SeededIdScope {
 public:
  enum class Kind { kChained, kRoot };
  explicit SeededIdScope(Kind kind = Kind::kChained);
  ~SeededIdScope();
  SeededIdScope(const SeededIdScope&) = delete;
  SeededIdScope& operator=(const SeededIdScope&) = delete;
  // The next staging run starts: the ids drawn so far are handed out again first.
  void Rewind() { next_ = 0; }
  // Called by NewId for a seeded id of `prefix`: the one to hand out again, or "".
  std::string Replayed(char prefix);
  void Drawn(const std::string& id);

 private:
  SeededIdScope* outer_;
  const bool chained_;
  std::vector<std::string> ids_;
  size_t next_ = 0;
};

}  // namespace folio::storage
