// What fsck reports and plans: the finding ids of docs/STORAGE.md §10 with their
// severities (the only ids fsck uses), and a Problem = a Finding plus the Action that
// --repair takes for it. Checks plan actions; repair.cc and adopt.cc carry them out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "folio/fsck.h"

namespace folio::fsck {

struct FindingKind {
  const char* id;
  Severity severity;
};

inline constexpr FindingKind kDataMetaMissing{"data-meta-missing", Severity::kWarning};
inline constexpr FindingKind kDomainMetaInvalid{"domain-meta-invalid", Severity::kError};
inline constexpr FindingKind kRepositoryMetaInvalid{"repository-meta-invalid", Severity::kError};
inline constexpr FindingKind kJournalPending{"journal-pending", Severity::kWarning};
inline constexpr FindingKind kLogPending{"log-pending", Severity::kWarning};
inline constexpr FindingKind kLogUnreadable{"log-unreadable", Severity::kError};
inline constexpr FindingKind kLeftoverTempFile{"leftover-temp-file", Severity::kWarning};
inline constexpr FindingKind kTrashLeftover{"trash-leftover", Severity::kWarning};
inline constexpr FindingKind kUploadLeftover{"upload-leftover", Severity::kWarning};
inline constexpr FindingKind kSidecarUnparseable{"sidecar-unparseable", Severity::kError};
inline constexpr FindingKind kFolderRecordMissing{"folder-record-missing", Severity::kNote};
inline constexpr FindingKind kDocumentRecordMissing{"document-record-missing", Severity::kNote};
inline constexpr FindingKind kContentFileMissing{"content-file-missing", Severity::kError};
inline constexpr FindingKind kIdDuplicate{"id-duplicate", Severity::kError};
inline constexpr FindingKind kIndexEntryMissing{"index-entry-missing", Severity::kError};
inline constexpr FindingKind kIndexEntryWrong{"index-entry-wrong", Severity::kError};
inline constexpr FindingKind kIndexEntryDangling{"index-entry-dangling", Severity::kError};
inline constexpr FindingKind kVersionLabelsInvalid{"version-labels-invalid", Severity::kError};
inline constexpr FindingKind kVersionFileMissing{"version-file-missing", Severity::kError};
inline constexpr FindingKind kVersionFileUnlisted{"version-file-unlisted", Severity::kWarning};
inline constexpr FindingKind kContentLengthMismatch{"content-length-mismatch", Severity::kError};
inline constexpr FindingKind kVersionContentChanged{"version-content-changed", Severity::kError};
inline constexpr FindingKind kPwcInconsistent{"pwc-inconsistent", Severity::kError};
inline constexpr FindingKind kCheckedOutMarkerMismatch{"checkedout-marker-mismatch", Severity::kWarning};
inline constexpr FindingKind kFolderMarkerMismatch{"folder-marker-mismatch", Severity::kWarning};
inline constexpr FindingKind kLatestContentMismatch{"latest-content-mismatch", Severity::kWarning};
inline constexpr FindingKind kObjectTypeUnknown{"object-type-unknown", Severity::kError};
inline constexpr FindingKind kTypeUnparseable{"type-unparseable", Severity::kError};
inline constexpr FindingKind kSymlinkIgnored{"symlink-ignored", Severity::kNote};
inline constexpr FindingKind kSymlinkNotServed{"symlink-not-served", Severity::kWarning};
inline constexpr FindingKind kUserRecordInvalid{"user-record-invalid", Severity::kError};
inline constexpr FindingKind kGroupRecordInvalid{"group-record-invalid", Severity::kError};
inline constexpr FindingKind kGroupMemberUnknown{"group-member-unknown", Severity::kWarning};
inline constexpr FindingKind kPrincipalIdClash{"principal-id-clash", Severity::kError};
inline constexpr FindingKind kDomainAdminMissing{"domain-admin-missing", Severity::kError};
inline constexpr FindingKind kDomainJournalPending{"domain-journal-pending", Severity::kWarning};
inline constexpr FindingKind kAclEntryInvalid{"acl-entry-invalid", Severity::kWarning};
inline constexpr FindingKind kAclPrincipalUnknown{"acl-principal-unknown", Severity::kWarning};
inline constexpr FindingKind kQueryIndexUnreadable{"query-index-unreadable", Severity::kWarning};
inline constexpr FindingKind kQueryIndexIncomplete{"query-index-incomplete", Severity::kNote};
inline constexpr FindingKind kQueryIndexStale{"query-index-stale", Severity::kWarning};
inline constexpr FindingKind kAdoptedTableUnreadable{"adopted-table-unreadable", Severity::kError};
inline constexpr FindingKind kAdoptedFolderGone{"adopted-folder-gone", Severity::kError};
inline constexpr FindingKind kAdoptedFileMissing{"adopted-file-missing", Severity::kError};
inline constexpr FindingKind kAdoptedEntryShadowed{"adopted-entry-shadowed", Severity::kWarning};
inline constexpr FindingKind kAdoptedNameDuplicate{"adopted-name-duplicate", Severity::kWarning};
inline constexpr FindingKind kAdoptedFileEdited{"adopted-file-edited", Severity::kNote};

// What --repair does about one problem. Paths are data-directory-relative.
struct Action {
  enum class Kind {
    kNone,              // nothing can be done without deleting or guessing
    kRemove,            // remove `path` and everything below it (not user content)
    kMoveToLostFound,   // move `path` to the repository's lost+found
    kCompleteJournal,   // complete the committed journal records (RecoverJournal); a domain's: `path`
    kCompleteLog,       // apply the commit log's pending records and checkpoint it
    kAdopt,             // let the engine adopt the folder or file at `object`
    kAbsorb,            // take the user-visible file `object` as its latest content
    kWriteRootFolder,   // give the root folder its record, with the repository's root id
    kSetContentLength,  // set content.length in the record `path` to `size`
    kClearCheckOut,     // set checkedOut to null in the series file `path`
    kWriteMarker,       // create the check-out marker `path`
    kRemoveMarker,      // remove the check-out or folder marker `path`
    kWriteFolderMarker,  // write the folder marker `path` holding the id `object`
    kRebuildIndex,      // rewrite the repository's id index from the tree
    kRebuildQueryIndex,  // rebuild the repository's query index through the engine
    kWriteDataMeta,     // write .folio/folio.json
    kRebuildVersionRecord,  // write the missing version record `path` (version `object`)
    // Adoption tables (docs/STORAGE.md §4.1), each in one change of the commit log:
    kDropAdoptedEntry,       // remove the entry `object` from the table `path`
    kDropAdoptedDuplicates,  // remove the entry `object` from the folder's tables but `path`
    kForgetAdoptedFolder,    // record the deletion of every entry in the directory `path`, remove it
    kAbsorbAdopted,          // take the file of the entry `object` of table `path` as it is now
  };
  Kind kind = Kind::kNone;
  std::string path;
  std::string object;  // kAdopt, kAbsorb: repository-relative path of the object;
                       // kRebuildVersionRecord: the version's label; kWriteFolderMarker: the id;
                       // kDropAdopted*, kAbsorbAdopted: the entry's (document's) name
  uint64_t size = 0;   // kSetContentLength
};

struct Problem {
  Finding finding;
  Action action;
};
using Problems = std::vector<Problem>;

inline Problem MakeProblem(const FindingKind& kind, std::string path, std::string message, Action action = {}) {
  Problem p;
  p.finding.id = kind.id;
  p.finding.severity = kind.severity;
  p.finding.path = std::move(path);
  p.finding.message = std::move(message);
  p.action = std::move(action);
  return p;
}

inline Action Act(Action::Kind kind, std::string path = "") {
  Action a;
  a.kind = kind;
  a.path = std::move(path);
  return a;
}

inline void Append(Problems& to, Problems more) {
  for (Problem& p : more) to.push_back(std::move(p));
}

}  // namespace folio::fsck
