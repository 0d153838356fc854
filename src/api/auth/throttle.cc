// Per-user slow-down of failed logins; see throttle.h.
#include "api/auth/throttle.h"

#include <algorithm>

namespace folio::api::auth {

std::string ThrottleKey(std::string_view domain, std::string_view user, std::string_view address) {
  std::string key(domain);
  key += '\0';
  key += user;
  key += '\0';
  key += address;
  return key;
}

std::chrono::milliseconds Throttle::DelayAfter(int failures) const {
  if (failures < options_.free_failures) return std::chrono::milliseconds(0);
  const int doublings = std::min(failures - options_.free_failures, 20);
  return std::min(options_.max_delay, options_.base_delay * (int64_t{1} << doublings));
}

void Throttle::SetFailuresLocked(Entry& e, int failures) {
  e.failures = failures;
  const bool slowed = failures >= options_.free_failures;
  if (slowed != e.slowed) {
    e.slowed = slowed;
    if (slowed) {
      slowed_.fetch_add(1);
    } else {
      slowed_.fetch_sub(1);
    }
  }
}

bool Throttle::Slowed(const std::string& who) {
  if (slowed_.load() == 0) return false;  // the common case: nobody is being slowed down
  std::lock_guard<std::mutex> g(mu_);
  auto it = entries_.find(who);
  return it != entries_.end() && it->second.slowed &&
         Clock::now() - it->second.last_used <= options_.forget_after;
}

int Throttle::failures(const std::string& who) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = entries_.find(who);
  return it == entries_.end() ? 0 : it->second.failures;
}

bool Throttle::MakeRoomLocked(Clock::time_point now) {
  if (entries_.size() < options_.max_users) return true;
  // Drop the idle entry used longest ago (a linear scan, only when the table is full).
  auto victim = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    const Entry& e = it->second;
    if (e.running || !e.waiting.empty() || e.not_before > now) continue;
    if (victim == entries_.end() || e.last_used < victim->second.last_used) victim = it;
  }
  if (victim == entries_.end()) return false;
  SetFailuresLocked(victim->second, 0);
  entries_.erase(victim);
  return true;
}

void Throttle::Submit(const std::string& who, Check check, Refuse refuse) {
  std::unique_lock<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  auto it = entries_.find(who);
  if (it == entries_.end()) {
    if (!MakeRoomLocked(now)) {
      // Every tracked user is busy (a flood of names): refuse after the longest delay.
      lock.unlock();
      if (!pool_.RunAt(now + options_.max_delay, refuse)) refuse();
      return;
    }
    it = entries_.emplace(who, Entry{}).first;
  }
  Entry& e = it->second;
  if (now - e.last_used > options_.forget_after && !e.running && e.waiting.empty()) SetFailuresLocked(e, 0);
  e.last_used = now;
  if (!e.running) {
    StartLocked(who, e, Waiting{std::move(check), std::move(refuse)});
    return;
  }
  const bool slowed = e.failures >= options_.free_failures;
  if (e.waiting.size() < (slowed ? options_.max_waiting : options_.max_waiting_unthrottled)) {
    e.waiting.push_back(Waiting{std::move(check), std::move(refuse)});
    return;
  }
  // Too many waiting: refused without a check, but no sooner than a check would be.
  const Clock::time_point at = now + std::max(DelayAfter(e.failures), std::chrono::milliseconds(1));
  lock.unlock();
  if (!pool_.RunAt(at, refuse)) refuse();
}

void Throttle::StartLocked(const std::string& who, Entry& e, Waiting w) {
  e.running = true;
  const Clock::time_point at = std::max(Clock::now(), e.not_before);
  Refuse refuse = w.refuse;
  const bool queued = pool_.RunAt(at, [this, who, check = std::move(w.check)] { Finish(who, check()); });
  if (!queued) {
    // The pool is full: answer now (this runs with mu_ held only from Submit or Finish,
    // and `refuse` only answers its caller).
    e.running = false;
    refuse();
  }
}

void Throttle::Finish(const std::string& who, Outcome outcome) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = entries_.find(who);
  if (it == entries_.end()) return;
  Entry& e = it->second;
  e.running = false;
  if (outcome == Outcome::kFailed) SetFailuresLocked(e, e.failures + 1);
  if (outcome == Outcome::kVerified) SetFailuresLocked(e, 0);
  e.not_before = Clock::now() + DelayAfter(e.failures);
  e.last_used = Clock::now();
  while (!e.waiting.empty() && !e.running) {
    Waiting next = std::move(e.waiting.front());
    e.waiting.pop_front();
    StartLocked(who, e, std::move(next));
  }
  if (!e.running && e.waiting.empty() && e.failures == 0) entries_.erase(it);
}

}  // namespace folio::api::auth
