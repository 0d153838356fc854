// Sightings of hand edits, per request; see seen_edits.h.
#include "repo/hand_edits/seen_edits.h"

#include <algorithm>
#include <tuple>

#include "storage/committer.h"

namespace folio::repo::hand_edits {
namespace {

thread_local SeenEdits* t_current = nullptr;

}  // namespace

bool Sighting::operator<(const Sighting& o) const {
  return std::tie(kind, folder, names, id) < std::tie(o.kind, o.folder, o.names, o.id);
}

bool Sighting::operator==(const Sighting& o) const {
  return std::tie(kind, folder, names, id) == std::tie(o.kind, o.folder, o.names, o.id);
}

Status ReconcileFirst() {
  return Status(ErrorKind::kRuntime, "hand edits were found that are to be reconciled before this request goes on",
                std::errc::resource_unavailable_try_again);
}

bool IsReconcileFirst(const Status& s) {
  return s.kind() == ErrorKind::kRuntime && s.Is(std::errc::resource_unavailable_try_again);
}

SeenEdits::SeenEdits(bool writable) : writable_(writable), outer_(t_current) { t_current = this; }

SeenEdits::~SeenEdits() { t_current = outer_; }

Status SeenEdits::Record(Sighting s) {
  SeenEdits* seen = t_current;
  if (seen == nullptr || (s.DiskOnly() && !seen->writable_)) return OkStatus();
  if (auto it = seen->settled_.find(s); it != seen->settled_.end()) return it->second;
  const bool changes_answer = s.ChangesAnswer();
  if (std::find(seen->fresh_.begin(), seen->fresh_.end(), s) == seen->fresh_.end()) {
    seen->fresh_.push_back(std::move(s));
  }
  // A staging's reads must not go on past what is not reconciled: what it would stage
  // could be based on it (an edit by hand taken for the latest version's content).
  if (changes_answer && storage::Committer::InStaging()) return ReconcileFirst();
  return OkStatus();
}

bool SeenEdits::Keeps(Sighting::Kind kind) {
  return t_current != nullptr && (t_current->writable_ || !Sighting::DiskOnly(kind));
}

bool SeenEdits::AnswerPending() { return t_current != nullptr && t_current->fresh_changes_answer(); }

bool SeenEdits::fresh_changes_answer() const {
  return std::any_of(fresh_.begin(), fresh_.end(), [](const Sighting& s) { return s.ChangesAnswer(); });
}

std::vector<Sighting> SeenEdits::TakeFresh() {
  std::vector<Sighting> out = std::move(fresh_);
  fresh_.clear();
  return out;
}

}  // namespace folio::repo::hand_edits
