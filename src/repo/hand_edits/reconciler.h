// The one component that takes in what was made, edited, moved or removed by hand
// (docs/STORAGE.md §9): adoption of files and folders, edits of visible files, removals,
// folders removed or moved by hand, subfolder markers. It owns the reconciling half of
// Rule R1 (docs/STORAGE.md §10, "reads never write"): lookups only record what they
// find (repo/hand_edits/seen_edits.h); the repository's facade has it reconciled here, outside any
// lookup and any staging, through the committer (Run for a writer, RunBookkeeping,
// kept in memory, for a read-only repository: Adopter, Vanished, FolderMarkers), and
// then reads again, or runs a write again, as the request needs.
#pragma once

#include <type_traits>

#include "folio/status.h"
#include "repo/hand_edits/seen_edits.h"
#include "storage/id_seed.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::hand_edits {

// Uses: fs, layout, committer, adopter, vanished, markers.
class Reconciler {
 public:
  explicit Reconciler(Engine& engine) : engine_(engine) {}

  // How a request is run again once what it saw is reconciled.
  enum class Mode {
    kRead,    // when it met anything that changes its answer (it has told nothing yet)
    kWrite,   // when it failed, having met such a thing (a failed write changed nothing)
    kStream,  // only when it answered ReconcileFirst (its answer may have begun)
  };

  // Runs `request` (returning Status or Result<T>) with a SeenEdits of its own; takes in
  // what its lookups recorded (Settle) and runs it again as `mode` says, at most
  // kMaxRounds times in all. Returns the last run's result. Errors: those of `request`;
  // kRuntime when it still answers ReconcileFirst after the last round (a bug).
  // Requires: no staging or lookup runs on the calling thread.
  template <class F>
  auto Reconciled(Mode mode, F&& request) -> decltype(request()) {
    SeenEdits seen(writable());
    // A request run again gets the seeded ids its first run drew (storage/id_seed.h).
    storage::SeededIdScope ids(storage::SeededIdScope::Kind::kRoot);
    for (int round = 1;; ++round) {
      ids.Rewind();
      auto result = request();
      if (!seen.has_fresh()) return result;
      const Status s = StatusOf(result);
      const bool first = IsReconcileFirst(s);
      // Again also when reconciling failed: its lookups then answer that failure, as
      // they did when they reconciled themselves.
      const bool changes = seen.fresh_changes_answer();
      const bool settled = Settle(seen);
      const bool again = first || (mode == Mode::kRead && (changes || !settled)) ||
                         (mode == Mode::kWrite && !s.ok() && (changes || !settled));
      if (!again) return result;
      if (round == kMaxRounds) {
        if (first) return StillUnreconciled();
        return result;
      }
    }
  }

  // Takes in every fresh sighting of `seen`, one change (or a few: batches) each, and
  // notes each one's result there (SeenEdits::Settled). Returns false when one failed.
  // Requires: as Reconciled.
  bool Settle(SeenEdits& seen);
  // True when what is reconciled is written to disk; false for a read-only repository,
  // whose adoptions stay in memory (docs/STORAGE.md §9, "Read-only").
  bool writable() const;

  static constexpr int kMaxRounds = 4;

 private:
  Status Take(const Sighting& s);
  Status StillUnreconciled() const;
  static Status StatusOf(const Status& s) { return s; }
  template <class T>
  static Status StatusOf(const Result<T>& r) {
    return r.status();
  }

  Engine& engine_;
};

}  // namespace folio::repo::hand_edits
