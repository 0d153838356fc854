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

// A new series id for a document adopted in the folder `folder_id` (docs/STORAGE.md
// §4.1): "d", ten characters of [a-z0-9], "-", `folder_id`. The folder is where a
// lookup of the id finds the document as long as it has no index entry.
std::string NewAdoptedSeriesId(std::string_view folder_id);
// The folder id an adopted document's series id names; nullopt for any other id (also
// one whose folder part is not a valid object id).
std::optional<std::string> AdoptedFolderOf(std::string_view series_id);

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
