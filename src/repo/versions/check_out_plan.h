// Check-out and cancelling it decided (docs/API.md §6.4 and §6.5, docs/STORAGE.md §4.2):
// from what the caller has read, the working copy's record, the series after, whether
// content is copied, and the events, or the error the request gets. Pure functions:
// they read no file and no clock, so every decision is tested without a disk
// (tests/repo/versions/check_out_plan_test.cc); Versioning stages the plans.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/object.h"
#include "folio/status.h"
#include "repo/records.h"
#include "storage/change_set.h"

namespace folio::repo::versions {

// What the caller has read for a check-out of the object the request names. Reading
// stops at the first fact the plan refuses: a series is read only for a document, a
// version only for a versionable series not checked out.
struct CheckOutInputs {
  std::string id;                       // the id as requested (named in errors)
  BaseType base = BaseType::kDocument;  // the object's base type
  std::string path;                     // the document's path, "/a/b.txt" (named in errors)
  SeriesRecord series;                  // the document's series as read
  std::string label;                    // the version checked out: the one the id names, else the latest
  // That version's record; nullopt when the series does not have `label`.
  std::optional<ObjectRecord> version;
  // Rule V2: the visible file edited in place and not taken in, when it is that
  // version's content (EditedInPlace).
  std::optional<FileStat> edited;
  std::string latest_type_id;  // the type the latest version's record names
  std::string user;            // who checks out: the working copy's creator
  int64_t now_ms = 0;          // the time of the check-out
};

// A check-out, decided. Staged in this order: the working copy's content copied from
// the version's (`copies_content`, Rule V3: its own file, never another name), its
// record, the series, the checked-out marker, `events`.
struct CheckOutPlan {
  std::string label;            // the version the working copy is made from
  ObjectRecord pwc;             // the working copy's record
  bool copies_content = false;  // the version has content: pwc.content is a copy of it
  SeriesRecord series;          // checked out by the user, from `label`
  std::vector<storage::ChangeEvent> events;
};

// Decides the check-out described by `in`. The working copy: the version's record
// labelled "pwc", not major, without a check-in comment, created and last modified by
// `in.user` at `in.now_ms`, its content described as the edited file when `in.edited`
// (Rule V2: an edit by hand not taken in is copied with the rest). Any version may be
// checked out, not only the latest (docs/API.md §6.4). Who may write it is the
// caller's WriteCheck, asked before. Events: the working copy "created", the latest
// version "updated" (its series is checked out now; docs/API.md §7.12).
// Errors: kConstraint naming the id if the object is not a document, naming the path
// if its series is not versionable; kVersioning naming the path and who holds it (and
// since when) if the series is checked out; kObjectNotFound naming the id if the
// series has no version `in.label`.
Result<CheckOutPlan> PlanCheckOut(const CheckOutInputs& in);

// What the caller has read for cancelling the check-out of a working copy.
struct CancelCheckOutInputs {
  SeriesRecord series;         // the series as read (checked out, else the plan fails)
  ObjectRecord pwc;            // the working copy's record
  std::string latest_type_id;  // the type the latest version names ("" with no version)
};

// A cancel, decided. With `removes_document` the series is staged away whole
// (Staging::StageSeriesRemoval); else the series record, the working copy's record and
// content file removed, the checked-out marker removed. Then `events`.
struct CancelCheckOutPlan {
  // The document was created checked out: without its working copy nothing is left.
  bool removes_document = false;
  SeriesRecord series;  // no longer checked out (unless `removes_document`)
  std::vector<storage::ChangeEvent> events;
};

// Decides cancelling the check-out described by `in`; the versions stay as they were.
// Who checked the series out does not matter: whoever may write the working copy (the
// caller's WriteCheck) may cancel it. Events: the working copy "deleted", then the
// latest version "updated" (no longer checked out) when the series has one.
// Errors: kObjectNotFound naming the working copy if the series is not checked out (it
// was checked in or cancelled).
Result<CancelCheckOutPlan> PlanCancelCheckOut(const CancelCheckOutInputs& in);

}  // namespace folio::repo::versions
