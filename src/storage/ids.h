// Object ids: opaque, URL-safe, unique, never reused. Folders, document series, items
// and relationships get a random id with a one-letter kind prefix (f, d, i, r); a
// document version is "{seriesId};{label}" and a private working copy "{seriesId};pwc"
// (docs/API.md §6), so they need no index entry of their own.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace folio::storage {

// A new random id: `prefix` followed by 16 characters of [a-z0-9] (about 82 bits).
std::string NewId(char prefix);
// This process's id without a system call per use (renewed in a forked child).
pid_t ProcessId();

std::string VersionId(std::string_view series_id, std::string_view label);
std::string PwcId(std::string_view series_id);

struct ParsedId {
  std::string base;                  // the indexed id (folder, series, item, relationship)
  std::optional<std::string> label;  // version label, or "pwc"
  bool is_pwc() const { return label && *label == "pwc"; }
};
// Splits "d…;1.0" into base and label. nullopt if `id` is not of Folio's form
// (empty, too long, or characters outside [A-Za-z0-9._;-]).
std::optional<ParsedId> ParseObjectId(std::string_view id);

}  // namespace folio::storage
