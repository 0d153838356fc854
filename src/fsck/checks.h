// The checks: one function per invariant of docs/STORAGE.md §10 (or per closely related
// group), each turning the facts of one walk into Problems (a finding and the repair
// it plans). Checks only read; those taking an Fs read file contents or type files.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "folio/fs.h"
#include "fsck/facts.h"
#include "fsck/problem.h"

namespace folio::fsck {

// --- check_meta.cc: metadata and leftovers of interrupted work ---
Problems CheckDataMeta(const DataFacts& d);                            // data-meta-missing
Problems CheckDomainMeta(const DataFacts& d);                          // domain-meta-invalid
Problems CheckRepositoryMeta(const RepoFacts& f);                      // repository-meta-invalid
Problems CheckJournal(const RepoFacts& f);                             // journal-pending
Problems CheckCommitLog(const RepoFacts& f);                           // log-pending, log-unreadable
Problems CheckTempFiles(const std::vector<std::string>& temps);        // leftover-temp-file
Problems CheckTrash(const std::vector<std::string>& trash);            // trash-leftover
Problems CheckUploads(const RepoFacts& f, int64_t now_ns);             // upload-leftover
Problems CheckSpecialFiles(const std::vector<SpecialFile>& specials);  // symlink-ignored, symlink-not-served

// --- check_records.cc: records, ids, the index and types ---
Problems CheckSidecars(const RepoFacts& f);             // sidecar-unparseable
Problems CheckUnadopted(const RepoFacts& f);            // folder-record-missing, document-record-missing
Problems CheckIdDuplicates(const RepoFacts& f);         // id-duplicate
Problems CheckIndex(const RepoFacts& f);                // index-entry-missing, -wrong, -dangling
Problems CheckFolderMarkers(const RepoFacts& f);        // folder-marker-mismatch
Problems CheckTypes(Fs& fs, const RepoFacts& f);        // type-unparseable
Problems CheckObjectTypes(Fs& fs, const RepoFacts& f);  // object-type-unknown

// The records that own their id (one per id), and each duplicate with the record it
// duplicates. The owner is the record the index entry points to, else the first walked.
struct IdOwners {
  std::vector<const RecordFact*> owners;
  std::vector<std::pair<const RecordFact*, const RecordFact*>> duplicates;  // (duplicate, owner)
};
IdOwners FindIdOwners(const RepoFacts& f);
// The index entry the tree implies for `r` (parent "" when unknown).
storage::IndexEntry ExpectedEntry(const RecordFact& r);

// --- check_series.cc: documents, versions and working copies ---
Problems CheckContentFiles(const RepoFacts& f);    // content-file-missing
Problems CheckVersionLabels(const RepoFacts& f);   // version-labels-invalid
Problems CheckVersionFiles(const RepoFacts& f);    // version-file-missing, version-file-unlisted
// content-length-mismatch; repaired only when the bytes still match the version's
// digest (the record's length was wrong, not the content: Rule V5). Reads the bytes of
// the files whose length is wrong, and only those: every pass of a repair can check.
Problems CheckContentLengths(Fs& fs, const RepoFacts& f);
// version-content-changed: an earlier version's or the working copy's bytes no longer
// match the SHA-256 its record holds (Rule V5, repo/versions/version_files.h); never
// repaired. Only with `compare_bytes` (every such file is read).
Problems CheckVersionContent(Fs& fs, const RepoFacts& f, bool compare_bytes);
Problems CheckWorkingCopies(const RepoFacts& f);   // pwc-inconsistent
Problems CheckMarkers(const RepoFacts& f);         // checkedout-marker-mismatch
// latest-content-mismatch. Without `compare_bytes` only sizes are compared (cheap).
Problems CheckLatestContent(Fs& fs, const RepoFacts& f, bool compare_bytes);

// --- check_adopted.cc: adoption tables (docs/STORAGE.md §4.1) ---
Problems CheckAdoptionTables(const RepoFacts& f);   // adopted-table-unreadable
Problems CheckAdoptedFolders(const RepoFacts& f);   // adopted-folder-gone
Problems CheckAdoptedFiles(const RepoFacts& f);     // adopted-file-missing
Problems CheckAdoptedShadowed(const RepoFacts& f);  // adopted-entry-shadowed
Problems CheckAdoptedNames(const RepoFacts& f);     // adopted-name-duplicate
Problems CheckAdoptedEdits(const RepoFacts& f);     // adopted-file-edited

// --- check_accounts.cc: each domain's users and groups ---
// user-record-invalid, group-record-invalid, group-member-unknown, principal-id-clash,
// domain-admin-missing, domain-journal-pending, leftover-temp-file (in users/, groups/,
// journal/). Reads the user and group files.
Problems CheckAccounts(Fs& fs, const DataFacts& d);
// acl-entry-invalid, acl-principal-unknown: the entries of every object's ACL.
Problems CheckObjectAcls(Fs& fs, const RepoFacts& f);
// --- check_query_index.cc: the derived query index (src/repo/query) ---
// query-index-unreadable, query-index-incomplete, query-index-stale (reads it only).
Problems CheckQueryIndex(Fs& fs, const RepoFacts& f);

// Every check, in report order.
Problems CheckData(const DataFacts& d);
Problems CheckRepository(Fs& fs, const RepoFacts& f, bool compare_bytes);

}  // namespace folio::fsck
