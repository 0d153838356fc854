// Id generation and parsing; see ids.h.
#include "storage/ids.h"
#include "storage/id_seed.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>

namespace folio::storage {
namespace {

// getpid is a system call (glibc caches it no more): ids and temp names are made for
// every file a change writes, so the pid is kept, and renewed in a forked child.
std::atomic<pid_t> g_pid{0};
std::atomic<uint64_t> g_fork_generation{1};

void AfterForkInChild() {
  g_pid.store(::getpid());
  g_fork_generation.fetch_add(1);
}

}  // namespace

pid_t ProcessId() {
  pid_t pid = g_pid.load(std::memory_order_relaxed);
  if (pid != 0) return pid;
  static std::once_flag registered;
  std::call_once(registered, [] { ::pthread_atfork(nullptr, nullptr, AfterForkInChild); });
  pid = ::getpid();
  g_pid.store(pid);
  return pid;
}

namespace {
constexpr size_t kAdoptedRandom = 10;
}  // namespace

namespace {

constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";

// The seeded ids: how many of each prefix were made.
struct Seeded {
  std::mutex mu;
  std::optional<uint64_t> seed;  // guarded by mu
  uint64_t made[256] = {};       // guarded by mu
};

Seeded& SeededIds() {
  static Seeded* s = new Seeded;  // never destroyed: ids may be made while the process exits
  return *s;
}

std::atomic<bool> g_seeded{false};

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

void SetIdSeed(std::optional<uint64_t> seed) {
  Seeded& s = SeededIds();
  std::lock_guard<std::mutex> lock(s.mu);
  s.seed = seed;
  std::fill(std::begin(s.made), std::end(s.made), 0);
  g_seeded.store(seed.has_value());
}

thread_local SeededIdScope* t_id_scope = nullptr;

SeededIdScope::SeededIdScope(Kind kind) : outer_(t_id_scope), chained_(kind == Kind::kChained) { t_id_scope = this; }

SeededIdScope::~SeededIdScope() { t_id_scope = outer_; }

std::string SeededIdScope::Replayed(char prefix) {
  if (next_ < ids_.size() && ids_[next_][0] == prefix) return ids_[next_++];
  ids_.resize(next_);  // this run asks for other ids than the last: they are drawn anew
  if (!chained_ || outer_ == nullptr) return "";
  std::string again = outer_->Replayed(prefix);
  if (!again.empty()) {
    ids_.push_back(again);
    next_ = ids_.size();
  }
  return again;
}

void SeededIdScope::Drawn(const std::string& id) {
  ids_.push_back(id);
  next_ = ids_.size();
  if (chained_ && outer_ != nullptr) outer_->Drawn(id);
}

void RestartSeededIds() {
  Seeded& s = SeededIds();
  std::lock_guard<std::mutex> lock(s.mu);
  std::fill(std::begin(s.made), std::end(s.made), 0);
}

std::string NewId(char prefix) {
  if (g_seeded.load(std::memory_order_relaxed) && prefix != 't' && prefix != 'u' && prefix != 'x') {
    SeededIdScope* scope = t_id_scope;
    if (scope != nullptr) {
      std::string again = scope->Replayed(prefix);
      if (!again.empty()) return again;
    }
    Seeded& s = SeededIds();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.seed) {
      const uint64_t n = s.made[static_cast<unsigned char>(prefix)]++;
      uint64_t a = SplitMix64(*s.seed ^ (static_cast<uint64_t>(static_cast<unsigned char>(prefix)) << 56) ^ n);
      uint64_t b = SplitMix64(a);
      std::string id(1, prefix);
      for (int i = 0; i < 16; ++i) {
        uint64_t& from = i < 8 ? a : b;
        id += kAlphabet[from % 36];
        from /= 36;
      }
      if (scope != nullptr) scope->Drawn(id);
      return id;
    }
  }
  // Seeded per thread, and again in a forked child: it would otherwise repeat its
  // parent's sequence, and so its ids.
  thread_local std::mt19937_64 rng;
  thread_local uint64_t seeded_for = 0;
  (void)ProcessId();  // registers the fork handler before the first fork can matter
  if (seeded_for != g_fork_generation.load(std::memory_order_relaxed)) {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd(), static_cast<unsigned>(ProcessId())};
    rng.seed(seq);
    seeded_for = g_fork_generation.load(std::memory_order_relaxed);
  }
  std::string id(1, prefix);
  for (int i = 0; i < 16; ++i) id += kAlphabet[rng() % 36];
  return id;
}

std::string NewAdoptedSeriesId(std::string_view folder_id) {
  std::string id = NewId('d').substr(0, 1 + kAdoptedRandom);
  id += '-';
  id += folder_id;
  return id;
}

std::optional<std::string> AdoptedFolderOf(std::string_view series_id) {
  if (series_id.size() <= kAdoptedRandom + 2 || series_id[0] != 'd' || series_id[kAdoptedRandom + 1] != '-') {
    return std::nullopt;
  }
  for (size_t i = 1; i <= kAdoptedRandom; ++i) {
    const char c = series_id[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  const std::string_view folder = series_id.substr(kAdoptedRandom + 2);
  auto parsed = ParseObjectId(folder);
  if (!parsed || parsed->label) return std::nullopt;
  return std::string(folder);
}

std::string VersionId(std::string_view series_id, std::string_view label) {
  return std::string(series_id) + ";" + std::string(label);
}
std::string PwcId(std::string_view series_id) { return std::string(series_id) + ";pwc"; }

std::optional<ParsedId> ParseObjectId(std::string_view id) {
  if (id.empty() || id.size() > 200) return std::nullopt;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '_' || c == '-' || c == ';';
    if (!ok) return std::nullopt;
  }
  ParsedId out;
  size_t semi = id.find(';');
  out.base = std::string(id.substr(0, semi));
  if (out.base.empty() || out.base[0] == '.') return std::nullopt;
  if (semi != std::string_view::npos) {
    std::string_view label = id.substr(semi + 1);
    if (label.empty() || label.find(';') != std::string_view::npos) return std::nullopt;
    out.label = std::string(label);
  }
  return out;
}

}  // namespace folio::storage
