// Passwords verified recently, so that an authenticated request costs about what an
// anonymous one does (argon2id takes ~30 ms by design). An entry is found by a keyed
// digest of (domain, user, password) under a per-process random key (never the clear
// password) and holds the stored password hash it was verified against: a changed
// password, or a deleted and re-created user, has another hash and misses at once.
#pragma once

#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace folio::api::auth {

class CredentialCache {
 public:
  explicit CredentialCache(size_t capacity) : capacity_(capacity) {}

  // The digest to look up and remember a (domain, user, password) by.
  static std::string Key(std::string_view domain, std::string_view user, std::string_view password);

  // True when `key` was verified against the stored hash `password_hash` of `user`.
  // Thread-safe.
  bool Verified(const std::string& key, std::string_view user, std::string_view password_hash);
  // Remembers a successful verification; the least recently used entry goes when full.
  void Remember(const std::string& key, std::string user, std::string password_hash);
  size_t size() const;

 private:
  struct Entry {
    std::string user;
    std::string password_hash;
    std::list<std::string>::iterator lru;
  };
  const size_t capacity_;
  mutable std::mutex mu_;
  std::list<std::string> lru_;  // most recent first
  std::unordered_map<std::string, Entry> map_;
};

}  // namespace folio::api::auth
