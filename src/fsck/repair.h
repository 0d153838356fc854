// fsck --repair: carries out the actions the checks planned. Data-level repairs hold
// the data directory's lock; a repository's repairs hold its write lock, except
// adoption, which goes through the public engine (adopt.cc) and so must not hold it
// (a second flock on the same file in one process would wait for ever).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "fsck/lost_found.h"
#include "fsck/problem.h"

namespace folio::fsck {

// What the repairs did: findings with `repair` set, and why others failed.
class RepairLog {
 public:
  void Done(const Problem& p, std::string what);
  void Failed(const Problem& p, const Status& why);

  // Repaired findings, one per id and path (the last repair of it wins), in order.
  std::vector<Finding> done() const;
  // Why the repair of the finding with `id` and `path` failed ("" if it did not).
  std::string failure(const Finding& f) const;

 private:
  std::vector<std::string> order_;
  std::map<std::string, Finding> done_;
  std::map<std::string, std::string> failed_;
};

// "id\npath": what identifies a finding from one run to the next.
std::string FindingKey(const Finding& f);

// Data and domain level: writes .folio/folio.json, removes temp files and trash,
// completes the changes of users and groups left pending (an unreadable journal record
// of a domain goes to the domain's .folio/lost+found first).
void RepairData(Fs& fs, LostFound& lost, RepairLog& log);

// Repairs the repository `base` ("domain/repository") of the data directory `fs`,
// in rounds (journal; engine adoption; locked repairs) until nothing repairable is
// left. Leaves a repository with invalid metadata, or a journal that cannot be
// completed, untouched.
void RepairRepository(Fs& fs, const std::string& base, LostFound& lost, RepairLog& log);

// adopt.cc: adopts hand-added folders and files (kAdopt) and absorbs hand edits
// (kAbsorb) through the public engine, so that the records are the ones Folio itself
// writes. Requires: the caller does not hold the repository's lock. Returns true if
// anything was done.
bool RepairThroughEngine(Fs& fs, const std::string& base, const Problems& problems,
                         RepairLog& log);

// adopt.cc: has the engine take in the objects whose index entries are dangling
// (kIndexEntryDangling: removed by hand with their folder, or set aside by a repair):
// their deletion is recorded in the change log (a deleted event each, in the change
// that removes the entry), so that a client following the log drops their ids.
// Requires: the caller does not hold the repository's lock. Returns true if anything
// was done.
bool ForgetThroughEngine(Fs& fs, const std::string& base, const Problems& problems, RepairLog& log);

// check_query_index.cc: rebuilds the repository's query index (kRebuildQueryIndex)
// through the engine, once every other problem is repaired. Requires: the caller does
// not hold the repository's lock. Returns true if it was rebuilt.
bool RebuildQueryIndex(Fs& fs, const std::string& base, const Problems& problems, RepairLog& log);

}  // namespace folio::fsck
