// The memory of one query (docs/API.md §12.4): SQLite's allocations go through a
// counting allocator, and a MemoryBudget on the querying thread bounds what the
// statements it runs may hold at once. SQLite runs a statement on the thread that steps
// it (no worker threads), so a budget per thread is a budget per query.
#pragma once

#include <cstdint>

namespace folio::query {

// What one query may hold in SQLite at once (docs/API.md §12.4).
inline constexpr uint64_t kQueryMemoryLimit = uint64_t{64} << 20;

// Installs the counting allocator. Must run before SQLite is first used in the process
// (Db::Open and Db::OpenExisting call it); later calls do nothing. False when SQLite was
// initialised before it could be installed: budgets then count nothing.
bool InstallSqliteMemoryCounter();

// While alive, every SQLite allocation made on this thread counts against `limit`
// bytes, less what it frees of those; one that would pass the limit fails (SQLite
// reports SQLITE_NOMEM) and the budget is marked exceeded. Not nested: a second budget
// on the same thread replaces the first until it ends. Not movable.
class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit);
  ~MemoryBudget();
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  uint64_t limit() const { return limit_; }
  // The bytes held now, and the most held at once, of what was allocated under it.
  uint64_t used() const { return used_; }
  uint64_t peak() const { return peak_; }
  // True once an allocation was refused.
  bool exceeded() const { return exceeded_; }

  // For the allocator (sqlite_memory.cc): whether `bytes` more fit (else marks the
  // budget exceeded); records an allocation and a free made under this budget.
  bool Admit(uint64_t bytes);
  void Add(uint64_t bytes);
  void Remove(uint64_t bytes);
  uint64_t id() const { return id_; }

 private:
  uint64_t limit_;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
  bool exceeded_ = false;
  uint64_t id_;
  MemoryBudget* previous_;
};

}  // namespace folio::query
