// What the lookups of one request found made, edited, moved or removed by hand
// (docs/STORAGE.md §9): a lookup never reconciles it (it never writes, Rule R1); it
// records a Sighting here and answers as if it were not reconciled yet. The request's
// facade (repo/hand_edits/reconciler.h) then has the Reconciler take the sightings in, outside any
// lookup and any staging, and reads again when the answer depends on them.
//
// Thread-safety: a SeenEdits belongs to the thread that made it (it is that thread's
// current one while it lives); they nest, the innermost records.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "folio/status.h"

namespace folio::repo::hand_edits {

struct Sighting {
  enum class Kind {
    kAdoptFolder,     // `folder`: a directory made by hand, without a record
    kAdoptDocument,   // `names[0]` in `folder`: a file added by hand (with its batch)
    kAdoptDocuments,  // `names` in `folder` (sorted): every file of a listing added by hand
    kHandEdit,        // `names[0]` in `folder`: the visible file of a document edited by hand
    kAdoptedEdit,     // the same, for an adopted document (docs/STORAGE.md §4.1)
    kMaterialize,     // `names[0]` in `folder`: an adopted document a write is to change
    kVanished,        // `id`: indexed, but its object is gone (removed or moved by hand)
    kMarkers,         // `folder`: its subfolders and their markers differ (folder_markers.h)
    kRemovals,        // `names` in `folder`: documents whose file was removed by hand
  };
  Kind kind;
  std::string folder;  // repository-relative
  std::vector<std::string> names;
  std::string id;

  bool operator<(const Sighting& o) const;
  bool operator==(const Sighting& o) const;
  // True when a read that met it must be read again once it is reconciled (a removal
  // changes no answer: the object is gone for a lookup either way).
  bool ChangesAnswer() const { return kind != Kind::kRemovals; }
  // True when reconciling it writes only to disk (nothing on a read-only repository,
  // where the object just stays out of sight); adoptions and edits are kept in memory
  // there (docs/STORAGE.md §9, "Read-only").
  bool DiskOnly() const { return DiskOnly(kind); }
  static bool DiskOnly(Kind k) { return k == Kind::kVanished || k == Kind::kMarkers || k == Kind::kRemovals; }
};

// kRuntime with cause resource_unavailable_try_again: what a lookup answers when its
// caller cannot go on without the reconciliation (a write's staging, a streamed answer
// not begun); the facade reconciles and runs the request again. Never reaches a client.
Status ReconcileFirst();
bool IsReconcileFirst(const Status& s);

class SeenEdits {
 public:
  // Becomes the calling thread's current one. `writable`: the repository records on
  // disk (sightings that only write there are dropped otherwise, see DiskOnly).
  explicit SeenEdits(bool writable);
  ~SeenEdits();
  SeenEdits(const SeenEdits&) = delete;
  SeenEdits& operator=(const SeenEdits&) = delete;

  // Records `s` in the calling thread's current SeenEdits (nothing without one: the
  // next request sees it again). Returns: the failure of its reconciliation earlier in
  // this request, if it failed (the lookup answers that, as if it had reconciled it
  // itself); ReconcileFirst when a staging runs on this thread and `s` changes the
  // answer (the write runs again once it is reconciled); OK otherwise.
  static Status Record(Sighting s);
  // True when Record keeps a sighting of `kind` on this thread (a SeenEdits is current,
  // and it is not dropped as DiskOnly): a listing that met one is then not cached.
  static bool Keeps(Sighting::Kind kind);
  // True when the calling thread's current SeenEdits holds sightings not reconciled yet
  // that change an answer: a streamed answer not begun then returns ReconcileFirst.
  static bool AnswerPending();

  bool has_fresh() const { return !fresh_.empty(); }
  bool fresh_changes_answer() const;
  // The sightings not reconciled yet, in the order they were recorded; they are then
  // no longer fresh.
  std::vector<Sighting> TakeFresh();
  // Notes the result of reconciling `s`: Record answers it for `s` from now on.
  void Settled(const Sighting& s, const Status& result) { settled_[s] = result; }

 private:
  const bool writable_;
  SeenEdits* const outer_;
  std::vector<Sighting> fresh_;
  std::map<Sighting, Status> settled_;
};

}  // namespace folio::repo::hand_edits
