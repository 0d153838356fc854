// Slows down repeated failed logins of one user from one client address without
// touching anyone else: the credential checks of one key (domain, user name, whether
// or not such a user exists, and client address) run one at a time, and after
// `free_failures` failures in a row each further check waits a delay that doubles per
// failure up to `max_delay`. While a key is being slowed down, checks beyond
// `max_waiting` are refused after the same delay without being run, so an attacker
// costs bounded memory and no hashing. Nothing here sleeps: waits are timed jobs of
// the HashPool, and the one lock is held only to update the bookkeeping. A verified
// password resets the count. A password found in the cache of verified ones never
// comes here (Authenticator answers it at once: a right password is never held back
// by others' guessing, from any address), and does not reset the count (else an
// attacker would get fresh attempts each time the real user makes a request).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "api/auth/hash_pool.h"

namespace folio::api::auth {

struct ThrottleOptions {
  int free_failures = 3;                               // failures in a row before any delay
  std::chrono::milliseconds base_delay{100};           // the first delay; doubles per failure
  std::chrono::milliseconds max_delay{2000};
  size_t max_waiting = 8;                              // per user while slowed down
  size_t max_waiting_unthrottled = 1024;               // per user otherwise (a burst of logins)
  std::chrono::milliseconds forget_after{15 * 60 * 1000};  // a quiet user's count is dropped
  size_t max_users = 10000;                            // users tracked at once
};

// The throttle's key of a user of a domain ("" for the server administrator) at a
// client address.
std::string ThrottleKey(std::string_view domain, std::string_view user, std::string_view address);

class Throttle {
 public:
  enum class Outcome {
    kFailed,      // wrong credentials: one more failure
    kVerified,    // right, checked in full: the count starts again
    kRemembered,  // right, found among verified credentials: the count stays
  };
  // A check: verifies the credentials, answers its caller itself, and says how it went.
  using Check = std::function<Outcome()>;
  // Answers a check that was refused unrun (the caller gets "too many failures").
  using Refuse = std::function<void()>;

  Throttle(HashPool& pool, ThrottleOptions options = {}) : pool_(pool), options_(options) {}

  // Runs `check` for `who` on the pool as described above, or `refuse`. Exactly one of
  // them is called, once, on a pool thread. When the pool itself is full, `refuse` is
  // called at once on the calling thread. Thread-safe.
  void Submit(const std::string& who, Check check, Refuse refuse);

  // True when `who` is being slowed down (free_failures failures in a row or more).
  // Lock-free while nobody is. Thread-safe.
  bool Slowed(const std::string& who);
  // Failures in a row of `who` (tests).
  int failures(const std::string& who);
  // The delay before the next check of someone with `failures` failures in a row.
  std::chrono::milliseconds DelayAfter(int failures) const;

 private:
  using Clock = HashPool::Clock;
  struct Waiting {
    Check check;
    Refuse refuse;
  };
  struct Entry {
    int failures = 0;
    Clock::time_point not_before{};
    Clock::time_point last_used{};
    bool running = false;
    bool slowed = false;  // counted in slowed_
    std::deque<Waiting> waiting;
  };

  // Requires mu_. Starts `w` for `who` at its earliest time.
  void StartLocked(const std::string& who, Entry& e, Waiting w);
  void Finish(const std::string& who, Outcome outcome);
  // Requires mu_. Sets e.failures and keeps slowed_ in step.
  void SetFailuresLocked(Entry& e, int failures);
  // Requires mu_. Makes room for one more user when full; false if none can go.
  bool MakeRoomLocked(Clock::time_point now);

  HashPool& pool_;
  const ThrottleOptions options_;
  std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
  std::atomic<size_t> slowed_{0};  // entries with slowed set
};

}  // namespace folio::api::auth
