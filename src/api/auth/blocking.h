// How a request thread tells the server that it is about to wait for authentication (a
// password check on the HashPool, or the delay of a user being slowed down): the HTTP
// layer installs hooks, and its reactor starts another worker when none is idle, so
// that other users' connections are served while this one waits.
//
// What a server needs to provide (today src/http/reactor's BlockingBegin/End do):
// - `begin`, called on a request thread about to block: if no other worker is idle,
//   start one (up to the server's maximum), so that the waiting thread does not hold
//   the workers other users need; a no-op on a thread that is no worker.
// - `end`, called when the wait is over (may be a no-op: a surplus worker retires when
//   it finds nothing to do).
// - The request head's `Authorization`, `X-API-KEY` and whether the peer is loopback in
//   api::Request, and Service::OpenUpload called with that head (so a refused caller's
//   upload is discarded).
// A server that answers requests asynchronously (Authenticator::UserAsync, parking the
// connection until the callback) needs no hooks: a worker then never waits.
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
