// Looking at each file once in a read of many objects; see look_once.h.
#include "storage/look_once.h"

#include <atomic>
#include <system_error>

namespace folio::storage {
namespace {

thread_local LookOnce* t_innermost = nullptr;
std::atomic<uint64_t> g_changes_applied{0};

uint64_t ChangesApplied() { return g_changes_applied.load(std::memory_order_acquire); }

}  // namespace

LookOnce::LookOnce() : seen_(ChangesApplied()), outer_(t_innermost) { t_innermost = this; }

LookOnce::~LookOnce() { t_innermost = outer_; }

LookOnce* LookOnce::Current() { return t_innermost; }

void LookOnce::ForgetAll() {
  for (LookOnce* s = t_innermost; s != nullptr; s = s->outer_) s->Clear();
}

void LookOnce::ChangeApplied() { g_changes_applied.fetch_add(1, std::memory_order_release); }

void LookOnce::Clear() { kept_.clear(); }

void LookOnce::ForgetIfChanged() {
  // Read before looking: a change applied meanwhile moves it, and the next call forgets.
  const uint64_t now = ChangesApplied();
  if (now != seen_) {
    Clear();
    seen_ = now;
  }
}

Result<FileStat> LookOnce::Stat(const Fs* fs, const std::string& path, bool identity,
                                const std::function<Result<FileStat>()>& look) {
  ForgetIfChanged();
  auto& kept = kept_[fs].by_path[identity ? 1 : 0];
  if (auto it = kept.find(path); it != kept.end()) return it->second;
  Result<FileStat> r = look();
  if (r.ok() || r.status().Is(std::errc::no_such_file_or_directory)) kept.emplace(path, r);
  return r;
}

Result<std::vector<DirEntry>> LookOnce::List(const Fs* fs, const std::string& path,
                                             const std::function<Result<std::vector<DirEntry>>()>& look) {
  ForgetIfChanged();
  auto& kept = kept_[fs].lists;
  if (auto it = kept.find(path); it != kept.end()) return it->second;
  Result<std::vector<DirEntry>> r = look();
  if (r.ok() || r.status().Is(std::errc::no_such_file_or_directory)) kept.emplace(path, r);
  return r;
}

}  // namespace folio::storage
