// Reconciling hand edits; see reconciler.h.
#include "repo/hand_edits/reconciler.h"

#include "storage/id_seed.h"
#include "storage/name_rules.h"

namespace folio::repo::hand_edits {

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
    case Kind::kAdoptFolder: return adopter_.AdoptFolder(s.folder);
    case Kind::kAdoptDocument: return adopter_.AdoptDocument(s.folder, name);
    case Kind::kAdoptDocuments: {
      // One batch adopts the name it is asked for and the next files in name order
      // (Adopter::AdoptDocument): `names` is sorted, so one call per batch.
      for (size_t i = 0; i < s.names.size(); i += kAdoptionBatch) {
        Status st = adopter_.AdoptDocument(s.folder, s.names[i]);
        if (!st.ok() && st.kind() != ErrorKind::kObjectNotFound) return st;  // gone meanwhile: the rest
      }
      return OkStatus();
    }
    case Kind::kHandEdit: return adopter_.AbsorbHandEdit(s.folder, name).status();
    case Kind::kAdoptedEdit: return adopter_.AbsorbAdoptedEdit(s.folder, name).status();
    case Kind::kMaterialize: return adopter_.Materialize(s.folder, name);
    case Kind::kVanished: return vanished_.Absorb(s.id);
    case Kind::kMarkers: {
      auto entries = fs_.List(layout_.Dir(s.folder));
      if (!entries.ok()) return IsMissing(entries.status()) ? OkStatus() : entries.status();
      return markers_.Reconcile(s.folder, *entries);
    }
    case Kind::kRemovals: return adopter_.AbsorbHandRemovals(s.folder, s.names);
  }
  return RuntimeError("unknown kind of hand edit");
}

Status Reconciler::StillUnreconciled() const {
  return RuntimeError("repository '" + layout_.base() + "': a request still met hand edits to reconcile after " +
                      std::to_string(kMaxRounds) + " rounds of it");
}

}  // namespace folio::repo::hand_edits
