// The one table of operations (docs/API.md §7): for each Operation, its canonical name
// and every spelling a request may use, whether it writes, the URL levels where it
// runs, the handler that serves it (or none when it is not served yet: dispatch then
// answers notSupported naming it) and what the caller needs on the object it addresses.
// ParseOperation, OperationName, OperationSpellings, IsWrite and AllOperations
// (api/operation.h) read it; dispatch routes by it; Context::Target checks by it.
// It lives beside the handlers it names, so that api/operation.h stays below ops/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "api/operation.h"
#include "api/ops/ops.h"

namespace folio::api::ops {

using Handler = Result<Response> (*)(Context&);

// A set of Levels, one bit each.
using LevelSet = uint8_t;
constexpr LevelSet LevelBit(Level level) { return static_cast<LevelSet>(1u << static_cast<unsigned>(level)); }

inline constexpr size_t kMaxSpellings = 4;

struct OperationRow {
  Operation op;
  bool write;          // changes stored data: POST only, refused by --read-only
  LevelSet levels;     // where it runs; repository level includes every object URL below it
  Handler handler;     // nullptr: not served yet
  // What the caller needs on the object it addresses (a create: on the parent folder),
  // checked when the handler first asks for it (Context::Target); nullopt above the
  // repository, and where the handler checks each object it touches itself (through
  // the guarded view; were such a handler to ask for a target, cmis:read is checked).
  std::optional<acl::Action> target_action;
  std::array<std::string_view, kMaxSpellings> spellings;  // canonical first; unused slots ""

  bool served() const { return handler != nullptr; }
  bool RunsAt(Level level) const { return (levels & LevelBit(level)) != 0; }
  // The spellings in use, the canonical one first.
  std::span<const std::string_view> Spellings() const;
};

// Every row, one per Operation, in the enum's declaration order.
std::span<const OperationRow> OperationTable();

// The row of `op`.
const OperationRow& OperationRowFor(Operation op);

}  // namespace folio::api::ops
