// How a thread tells whoever runs it that it is about to wait on something other than
// its own work: the flush of a group commit (storage/committer.h), a password check on
// the hash pool or the delay of a user being slowed down (api/auth/authenticator.h).
// A server that shares a few workers among its connections installs hooks once, and
// starts another worker when none is idle, so that the waiting thread does not hold the
// workers other connections need. Folio's HTTP server gives each connection its own
// thread (src/http/engine.h) and installs none.
//
// What the hooks must do:
// - `begin`, called on a thread about to wait: if no other worker is idle, start one (up
//   to the server's maximum); a no-op on a thread that is no worker.
// - `end`, called when the wait is over (may be a no-op: a surplus worker retires when
//   it finds nothing to do).
#pragma once

namespace folio::storage {

struct WaitHooks {
  void (*begin)() = nullptr;  // the calling thread is about to wait
  void (*end)() = nullptr;    // ... and is done waiting
};

// Installs `hooks` for every thread (the HTTP server does, once). Thread-safe.
void SetWaitHooks(WaitHooks hooks);
// The hooks installed (nullptr members when none).
WaitHooks CurrentWaitHooks();

// Calls the installed `begin` when made and `end` when destroyed (nothing when none are
// installed); for a wait that may block this thread.
class ScopedWait {
 public:
  ScopedWait();
  ~ScopedWait();
  ScopedWait(const ScopedWait&) = delete;
  ScopedWait& operator=(const ScopedWait&) = delete;

 private:
  WaitHooks hooks_;
};

}  // namespace folio::storage
