// The verified-credentials cache; see credential_cache.h.
#include "api/auth/credential_cache.h"

#include "repo/acl/secrets.h"

namespace folio::api::auth {

std::string CredentialCache::Key(std::string_view domain, std::string_view user, std::string_view password) {
  return acl::ProcessDigest({domain, user, password});
}

bool CredentialCache::Verified(const std::string& key, std::string_view user, std::string_view password_hash) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = map_.find(key);
  if (it == map_.end()) return false;
  if (it->second.user != user || it->second.password_hash != password_hash) {
    // The user's password changed (or the user was re-created): the entry is stale.
    lru_.erase(it->second.lru);
    map_.erase(it);
    return false;
  }
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return true;
}

void CredentialCache::Remember(const std::string& key, std::string user, std::string password_hash) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = map_.find(key);
  if (it != map_.end()) {
    it->second.user = std::move(user);
    it->second.password_hash = std::move(password_hash);
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return;
  }
  if (capacity_ == 0) return;
  while (map_.size() >= capacity_) {
    map_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(key);
  map_.emplace(key, Entry{std::move(user), std::move(password_hash), lru_.begin()});
}

size_t CredentialCache::size() const {
  std::lock_guard<std::mutex> g(mu_);
  return map_.size();
}

}  // namespace folio::api::auth
