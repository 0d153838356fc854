// Who may make a change (docs/API.md §11.3): every write of folio::Repository takes a
// WriteCheck, with no default, so a caller states whose permissions a change runs with.
// The served API builds one from the caller's permissions (acl::Checker::ForWrite); a
// caller trusted with the whole data directory (the command-line tools, fsck, import,
// tests) says so with WriteCheck::Trusted().
#pragma once

#include <concepts>
#include <functional>
#include <type_traits>
#include <utility>

#include "folio/object.h"
#include "folio/status.h"

namespace folio {

// What an object is to the change that asks about it.
enum class WriteRole {
  kObject,  // the object changed, deleted, checked out or in; for a create, its folder
  kSource,  // a move: the folder the object leaves; a relationship: its source
  kTarget,  // a move: the folder it goes to; a relationship: its target
  kBelow,   // deleteTree, a propagated applyACL: each object below the folder (id, base,
            // type_id, name, path and acl filled in; every other member empty)
};

// The engine asks a check inside the change, while the change is staged under the
// repository's write exclusion, on each object the change involves as it finds it then:
// no other change (an applyACL that revokes the permission) can come between the check
// and the write.
class WriteCheck {
 public:
  // Returns OK to allow, or the error that refuses the change (kPermissionDenied naming
  // the object); nothing is written then. Called on the writing thread, possibly more
  // than once per change (a staging may run again); must not call the repository.
  using Function = std::function<Status(WriteRole role, const ObjectData& object)>;

  // A check that asks `f`. An empty `f` refuses every change (kPermissionDenied): a
  // policy that was never filled in allows nothing.
  template <typename F>
    requires std::is_invocable_r_v<Status, F&, WriteRole, const ObjectData&> &&
             (!std::same_as<std::remove_cvref_t<F>, WriteCheck>)
  WriteCheck(F&& f) : f_(std::forward<F>(f)) {}  // NOLINT(google-explicit-constructor)

  // Every change allowed, without building the objects a check would be shown: for a
  // caller trusted with the whole data directory (the command-line tools, a domain
  // administrator, tests).
  static WriteCheck Trusted() { return WriteCheck(TrustedTag{}); }

  // True for Trusted(): the engine need not build the objects to ask about.
  bool trusted() const { return trusted_; }

  // The check's answer for `object` in `role` (OK for Trusted()).
  Status operator()(WriteRole role, const ObjectData& object) const;

 private:
  struct TrustedTag {};
  explicit WriteCheck(TrustedTag) : trusted_(true) {}

  Function f_;
  bool trusted_ = false;
};

inline Status WriteCheck::operator()(WriteRole role, const ObjectData& object) const {
  if (trusted_) return OkStatus();
  if (!f_) return PermissionDenied("no write check was given for '" + object.path + "'");
  return f_(role, object);
}

}  // namespace folio
