// Reconciling hand edits; see reconciler.h.
#include "repo/hand_edits/reconciler.h"

#include "repo/engine.h"
#include "storage/id_seed.h"
#include "storage/name_rules.h"

namespace folio::repo::hand_edits {

bool Reconciler::writable() const { return !engine_.committer.read_only() && !engine_.committer.on_read_only_fs(); }

bool Reconciler::Settle(SeenEdits& seen) {
  // Bookkeeping draws ids of its own, never those of the request it ran between.
  const storage::SeededIdScope own_ids(storage::SeededIdScope::Kind::kRoot);
  bool all_ok = true;
  for (const Sighting& s : seen.TakeFresh()) {
    Status result = Take(s);
    all_ok = all_ok && result.ok();
    seen.Settled(s, result);
  }
  return all_ok;
}

Status Reconciler::Take(const Sighting& s) {
  using Kind = Sighting::Kind;
  const std::string name = s.names.empty() ? std::string() : s.names.front();
  switch (s.kind) {
    case Kind::kAdoptFolder: return engine_.adopter.AdoptFolder(s.folder);
    case Kind::kAdoptDocument: return engine_.adopter.AdoptDocument(s.folder, name);
    case Kind::kAdoptDocuments: {
      // One batch adopts the name it is asked for and the next files in name order
      // (Adopter::AdoptDocument): `names` is sorted, so one call per batch.
      for (size_t i = 0; i < s.names.size(); i += kAdoptionBatch) {
        Status st = engine_.adopter.AdoptDocument(s.folder, s.names[i]);
        if (!st.ok() && st.kind() != ErrorKind::kObjectNotFound) return st;  // gone meanwhile: the rest
      }
      return OkStatus();
    }
    case Kind::kHandEdit: return engine_.adopter.AbsorbHandEdit(s.folder, name).status();
    case Kind::kAdoptedEdit: return engine_.adopter.AbsorbAdoptedEdit(s.folder, name).status();
    case Kind::kMaterialize: return engine_.adopter.Materialize(s.folder, name);
    case Kind::kVanished: return engine_.vanished.Absorb(s.id);
    case Kind::kMarkers: {
      auto entries = engine_.fs.List(engine_.layout.Dir(s.folder));
      if (!entries.ok()) return IsMissing(entries.status()) ? OkStatus() : entries.status();
      return engine_.markers.Reconcile(s.folder, *entries);
    }
    case Kind::kRemovals: return engine_.adopter.AbsorbHandRemovals(s.folder, s.names);
  }
  return RuntimeError("unknown kind of hand edit");
}

Status Reconciler::StillUnreconciled() const {
  return RuntimeError("repository '" + engine_.layout.base() + "': a request still met hand edits to reconcile after " +
                      std::to_string(kMaxRounds) + " rounds of it");
}

}  // namespace folio::repo::hand_edits
