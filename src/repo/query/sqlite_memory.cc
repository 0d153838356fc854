// The counting SQLite allocator and MemoryBudget; see sqlite_memory.h.
#include "repo/query/sqlite_memory.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

namespace folio::query {
namespace {

// Each block starts with a header: its size (what xSize answers) and the id of the
// budget it was allocated under (0: none), so that a free counts against that budget
// only, and only on its thread while it lives. 16 bytes keep malloc's alignment.
struct Header {
  uint64_t size;
  uint64_t budget;
};
static_assert(sizeof(Header) == 16);

thread_local MemoryBudget* t_budget = nullptr;
std::atomic<uint64_t> g_next_budget_id{1};

Header* HeaderOf(void* p) { return reinterpret_cast<Header*>(static_cast<char*>(p) - sizeof(Header)); }

void* Malloc(int n) {
  if (n <= 0) return nullptr;
  const auto bytes = static_cast<uint64_t>(n);
  MemoryBudget* budget = t_budget;
  if (budget != nullptr && !budget->Admit(bytes)) return nullptr;
  auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + bytes));
  if (h == nullptr) return nullptr;
  h->size = bytes;
  h->budget = budget != nullptr ? budget->id() : 0;
  if (budget != nullptr) budget->Add(bytes);
  return h + 1;
}

void Forget(const Header& h) {
  MemoryBudget* budget = t_budget;
  if (budget != nullptr && h.budget == budget->id()) budget->Remove(h.size);
}

void Free(void* p) {
  if (p == nullptr) return;
  Header* h = HeaderOf(p);
  Forget(*h);
  std::free(h);
}

void* Realloc(void* p, int n) {
  if (p == nullptr) return Malloc(n);
  if (n <= 0) return nullptr;  // SQLite never asks this (sqlite3_realloc frees itself)
  Header* h = HeaderOf(p);
  const uint64_t old_size = h->size;
  const auto bytes = static_cast<uint64_t>(n);
  MemoryBudget* budget = t_budget;
  const bool counted = budget != nullptr && h->budget == budget->id();
  // A block allocated outside the budget counts whole once it is moved under it.
  const uint64_t more = counted ? (bytes > old_size ? bytes - old_size : 0) : bytes;
  if (budget != nullptr && more > 0 && !budget->Admit(more)) return nullptr;
  auto* moved = static_cast<Header*>(std::realloc(h, sizeof(Header) + bytes));
  if (moved == nullptr) return nullptr;
  if (counted) budget->Remove(old_size);
  moved->size = bytes;
  moved->budget = budget != nullptr ? budget->id() : 0;
  if (budget != nullptr) budget->Add(bytes);
  return moved + 1;
}

int Size(void* p) { return p == nullptr ? 0 : static_cast<int>(HeaderOf(p)->size); }
int Roundup(int n) { return (n + 7) & ~7; }
int Init(void*) { return SQLITE_OK; }
void Shutdown(void*) {}

bool Install() {
  static const sqlite3_mem_methods methods = {Malloc, Free, Realloc, Size, Roundup, Init, Shutdown, nullptr};
  return sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) == SQLITE_OK;
}

}  // namespace

bool InstallSqliteMemoryCounter() {
  static const bool installed = Install();
  return installed;
}

MemoryBudget::MemoryBudget(uint64_t limit)
    : limit_(limit), id_(g_next_budget_id.fetch_add(1, std::memory_order_relaxed)), previous_(t_budget) {
  t_budget = this;
}

MemoryBudget::~MemoryBudget() { t_budget = previous_; }

bool MemoryBudget::Admit(uint64_t bytes) {
  if (used_ + bytes <= limit_) return true;
  exceeded_ = true;
  return false;
}

void MemoryBudget::Add(uint64_t bytes) {
  used_ += bytes;
  peak_ = std::max(peak_, used_);
}

void MemoryBudget::Remove(uint64_t bytes) { used_ -= std::min(used_, bytes); }

}  // namespace folio::query
