// Check-in decided (docs/API.md §6.4, docs/STORAGE.md §4 and §4.2): from what the caller
// has read, the new version's label, records and files and the events, or the error
// the request gets. A pure function: it reads no file and no clock, so every decision
// of a check-in is tested without a disk (tests/repo/versions/check_in_plan_test.cc);
// versions::CheckInStaging (check_in_staging.h) carries a plan out.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/object.h"
#include "folio/status.h"
#include "repo/records.h"
#include "repo/types/secondary_types.h"
#include "repo/types/types.h"
#include "storage/change_set.h"

namespace folio::repo::versions {

// What the caller has read for a check-in of one working copy.
struct CheckInInputs {
  SeriesRecord series;       // the series as read (checked out, else the plan fails)
  std::string name;          // the document's present name (its visible file's)
  ObjectRecord pwc;          // the working copy's record
  std::string user;          // who checks in: the new version's creator
  int64_t now_ms = 0;        // the time of the check-in
  // The working copy's type, and the rules of the change (types::PlanSecondaryChange of the
  // request's properties: it took cmis:secondaryObjectTypeIds out of a copy of them).
  std::shared_ptr<const types::TypeDef> type;
  types::SecondaryChange rules;
  // The definitions of the secondary types the new version lists
  // (SecondaryTypeIdsAfterCheckIn; ids of unknown types left out).
  std::vector<std::shared_ptr<const types::TypeDef>> secondary;
  // The working copy's content file as stat'ed now (its inode and link count), when its
  // record has content.
  std::optional<FileStat> pwc_content;
  // Rule V2: the visible file edited in place and not taken in (EditedInPlace of the
  // latest version's content), if so.
  std::optional<FileStat> edited;
  // The records of versions the check-in rewrites, by label: every version
  // (VersionList::AllLabels) when the request adds or removes ACEs, else the latest
  // when `edited`, else none.
  std::map<std::string, ObjectRecord> versions;
};

// Where the new version's content comes from.
enum class NewContent {
  kNone,                // no content: the new version has none, F/N becomes an empty file
  kFromRequest,         // the request's content becomes <label>.content (its description
                        // is filled in when staged); the working copy's file is removed
  kWorkingCopyRenamed,  // pwc.content, its only name, is renamed to <label>.content (V3)
  kWorkingCopyCopied,   // pwc.content has another name (older data linked it): copied to
                        // <label>.content, then removed (V3)
};

// A check-in, decided. Staged in this order (CheckInStaging): the rename, if any
// (changes::Relocation, the visible file restaged); the content; the new version's
// record; the working copy's record removed; `rewritten`; the series (archived as
// VersionList::ArchiveOldest says) with F/N made a link of the new version's content,
// or an empty file (Rule V4: another inode than the earlier version's); the marker of
// the checked-out series removed; `events`.
struct CheckInPlan {
  std::string label;            // the new version's, per docs/API.md §6.4
  std::string name;             // the document's name after the check-in
  bool renames = false;         // `name` differs from the present one
  ObjectRecord version;         // the new version's record
  NewContent content = NewContent::kNone;
  // Earlier versions' records rewritten (a changed ACL, Rule V2's edit), by label.
  std::map<std::string, ObjectRecord> rewritten;
  SeriesRecord series;          // `label` appended, no longer checked out
  bool type_usages = false;     // the request lists secondary types: their markers are staged
  std::vector<storage::ChangeEvent> events;
};

// Decides the check-in of the working copy described by `in` with `request` (its
// properties, content, comment, ACEs and major flag). The new version: label per
// docs/API.md §6.4 (major: N+1.0, minor: N.M+1, from the latest, or 1.0/0.1 for a
// document created checked out); properties the working copy's with the request's
// applied (null unsets), created by `in.user` at `in.now_ms`; the request's comment or
// none; the working copy's ACL with the ACEs applied (reaching every version); its
// content the request's, else the working copy's own file (never an earlier version's:
// Rule V3). Who checked the series out does not matter here: whoever may write the
// working copy (the caller's WriteCheck) may check it in. Events: the edited latest version "updated" (V2),
// the working copy "deleted", the new version "created", and "security" when its ACL
// changed. Errors: kObjectNotFound if the series is not checked out;
// kStreamNotSupported for content the type forbids; the errors of types::NormalizeProperties
// (kInvalidArgument, kConstraint naming the property) and types::CheckRequired (kConstraint
// naming a required property left unset); kRuntime if `in` lacks a record it must have.
Result<CheckInPlan> PlanCheckIn(const CheckInInputs& in, const CheckInRequest& request);

// The ids of the secondary types the new version of a working copy whose stored
// properties are `pwc_properties` lists after a change with `rules`.
std::vector<std::string> SecondaryTypeIdsAfterCheckIn(const Json& pwc_properties, const types::SecondaryChange& rules);

}  // namespace folio::repo::versions
