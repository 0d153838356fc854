// The system under test of the model-based test (model_test.cc): one repository
// ("demo/main") opened through include/folio/repository.h on a MemFs, its query index
// (SQLite, in a temporary host directory: SQLite cannot open a MemFs file), and what the
// test learnt of it (the engine id of each model handle, the change log read so far).
//
// Check() compares everything a user can ask with a Model: the folder tree (children,
// descendants), every version's content and label rules, the working copy, properties
// and ACLs, queries, the ids the test learnt, the change log and fsck. It returns the
// differences, one per line ("" when there are none), so that a caller may try a state
// against more than one model (a change that failed at a disk error took effect or not).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "folio/repository.h"
#include "model/model.h"
#include "repo/query/query_index.h"
#include "storage/mem_fs.h"

namespace folio::model {

inline const std::string kBase = "demo/main";
inline const std::string kUser = "alice";

// How the repository is opened: spares reused at once and series lists archived early,
// so that short sequences reach those paths too (docs/STORAGE.md §4, §8.5).
inline const RepositoryOptions kRepoOptions{.spare_grace_ms = 0, .version_list_max = 3};

class Sut {
 public:
  // A new, empty repository on its own MemFs.
  Sut();
  ~Sut();

  storage::MemFs& disk() { return disk_; }
  Repository& repo() { return *repo_; }

  // Closes the repository (as a process that exits) and opens it again on `fs` (the
  // MemFs when null), recovering its commit log. A failed open fails the test.
  void Reopen(Fs* fs = nullptr);
  // Closes it without opening it again (before a power cut is simulated on the disk).
  void Close();
  // Checks go to `repo` from now on (a repository opened on a FaultyFs, or read-only)
  // until the next Reopen.
  void Use(std::shared_ptr<Repository> repo) { repo_ = std::move(repo); }
  // The query index's file is older than the data after a power loss: removed, it is
  // built again by the next query (an index on the same disk would have lost its
  // newest pages as well).
  void ForgetQueryIndex();

  // The engine id of handle `h` ("" when not learnt yet).
  std::string Id(int h) const;
  void SetId(int h, const std::string& id) {
    ids_[h] = id;
    fresh_.insert(h);
  }
  // Learns the ids of the model's objects the test has none for (made by hand, or by a
  // change whose answer was lost to a failure), by their paths. A handle new to the
  // model since the last call and not given an id meanwhile (SetId) forgets the id of
  // an object it named before (a shrunk sequence may give a deleted object's handle
  // to a new one). Without `look_up`, only forgets such ids (for a reader whose ids
  // are its own: a read-only process).
  void LearnIds(const Model& m, bool look_up = true);

  // What Check looks at besides listings, descendants, versions and ids.
  struct Checks {
    bool query = true;  // the query index agrees
    bool fsck = true;   // fsck over the whole disk (after a checkpoint) finds nothing
    // A document whose record is damaged (its handle and path; -1 and "": none): left
    // out of its folder's listing, which names it as damaged.
    int damaged = -1;
    std::string damaged_path;
  };
  // The differences between the repository and `m` ("" when none); see the file comment.
  std::string Check(const Model& m, Checks checks);
  // Every file and directory of the disk with its identity, size and time, one line
  // each: equal before and after means nothing was written.
  std::string Snapshot();
  // The change-log events recorded since the last call (marking them read), one line
  // each: "type objectId". Errors become a line of their own (starting with "<"), a
  // "deleted" event naming an id no "created" event named among them (a deleted object
  // is named by the id a client saw in the log: docs/API.md §7.12).
  std::vector<std::string> NewEvents();

  // Steps run by every Sut of this process (for the long campaign's count).
  static uint64_t& StepsRun();

 private:
  void OpenQueryIndex();
  std::vector<std::string> Describe(const std::string& damaged, std::string& errors);
  void DescribeDocument(const ObjectData& latest, std::vector<std::string>& out, std::string& errors);
  // The document's versions visited as the served getAllVersions reads them, newest first
  // (`serve --versions-newest-first`: the first object visited, always built, is then
  // not the oldest), earlier ones given again from kept_versions_ while their stamp
  // holds; each must equal `built`'s entry (a fresh build). Appends a line to `errors`
  // for each that differs.
  void CheckKeptVersions(const ObjectData& listed, const std::vector<ObjectData>& built, std::string& errors);
  std::string CheckQuery(const Model& m);
  std::string CheckIds(const Model& m, int damaged);
  std::string RunFsckHere();

  storage::MemFs disk_;
  std::shared_ptr<Repository> repo_;
  std::string index_dir_;  // the query index's directory: in memory (/dev/shm) where there is one
  std::shared_ptr<query::QueryIndex> index_;
  std::string root_id_;
  std::map<int, std::string> ids_;
  std::set<int> fresh_;    // handles given an id since the last LearnIds
  std::set<int> handles_;  // the model's handles at the last LearnIds
  uint64_t token_ = 0;  // the newest change-log token read
  std::set<std::string> logged_ids_;  // ids "created" in the log and not "deleted" since
  // Earlier versions by id, with the stamp they were built under: kept across steps and
  // reopenings, as `folio serve` keeps them across requests and fixture resets.
  std::map<std::string, std::pair<std::string, ObjectData>> kept_versions_;
};

}  // namespace folio::model
