// How a request thread tells the server that it is about to wait for authentication (a
// password check on the HashPool, or the delay of a user being slowed down): the HTTP
// layer installs hooks, and its reactor starts another worker when none is idle, so
// that other users' connections are served while this one waits. Needed until the HTTP
// layer answers such requests asynchronously (docs/AUTH.md, "Workers and hashing").
#pragma once

namespace folio::api::auth {

struct WaitHooks {
  void (*begin)() = nullptr;  // the calling thread is about to wait
  void (*end)() = nullptr;    // ... and is done waiting
};

// Installs `hooks` for every thread (the HTTP server does, once). Thread-safe.
void SetWaitHooks(WaitHooks hooks);
// The hooks installed (nullptr members when none).
WaitHooks CurrentWaitHooks();

}  // namespace folio::api::auth
