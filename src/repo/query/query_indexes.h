// The query indexes of every repository a server serves: made on first use, kept for
// the life of the server, built in the background at start so that the first query of
// a large repository does not wait for it (the ready line never waits for it either).
//
// Where an index lives (docs/STORAGE.md §8.8 "Reads never write", §12): in the
// repository's metadata when this server may write it; otherwise (a read-only store, a
// read-only mount, a directory this process may not write) in a scratch directory
// outside the data directory, built there from the repository's files. Nothing is then
// created, locked or changed in the data directory.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "folio/store.h"
#include "repo/query/query_index.h"

namespace folio::query {

// Where the index of the repository at data-directory-relative `base` lives, in the
// repository's metadata directory (docs/STORAGE.md §1, §12): R/.folio/query.sqlite
// (with SQLite's "-wal" and "-shm" files beside it), and the lock held while building
// it, R/.folio/query.lock.
std::string IndexFileOf(const std::string& base);
std::string IndexLockFileOf(const std::string& base);

// The index of the repository at data-directory-relative `base` ("domain/repository")
// on `fs`, following the repository's change log (change_log_feed.h); for a server
// (QueryIndexes) and for fsck alike.
// `scratch` (when given) holds the index's files instead, named after `base`
// (ScratchIndexFileOf).
std::shared_ptr<QueryIndex> MakeQueryIndex(Fs& fs, const std::string& base, QueryIndex::Logger log = {},
                                           Fs* scratch = nullptr);
// The index file of `base` in a scratch directory: "domain.repository.sqlite" (ids
// hold no dot), with SQLite's files and ".lock" beside it.
std::string ScratchIndexFileOf(const std::string& base);

// True when this process may write the repository metadata of `base` on `fs` (not
// `read_only`, and the directory is writable: no read-only mount, no permission
// missing).
bool MayWriteIndexBeside(Fs& fs, const std::string& base, bool read_only);

class QueryIndexes {
 public:
  // `store` must outlive this object; `log` receives progress and failures (one line
  // each, from any thread). `scratch_dir`: an existing directory outside the data
  // directory for the indexes that may not live in it (the caller removes it); empty:
  // one is made in $TMPDIR when first needed, and removed with this object.
  // `read_only`: the store was opened so (its indexes then never live in it).
  // `foreground` (when given; it must outlive this object): the requests the background
  // builds yield to (foreground.h).
  explicit QueryIndexes(Store& store, QueryIndex::Logger log = {}, std::string scratch_dir = {},
                        bool read_only = false, const Foreground* foreground = nullptr);
  // Stops the background builds (they resume at the next start) and waits for them.
  ~QueryIndexes();
  QueryIndexes(const QueryIndexes&) = delete;
  QueryIndexes& operator=(const QueryIndexes&) = delete;

  // The index of repository `domain_id`/`repository_id` (the same object for the life of
  // this one). It lives in the repository's metadata (IndexFileOf) or, when this server
  // may not write there, in the scratch directory. Errors: kStorage when the scratch
  // directory cannot be made.
  Result<std::shared_ptr<QueryIndex>> Get(const std::string& domain_id, const std::string& repository_id);

  // Starts one thread that makes every repository's index ready, one repository after
  // the other (logging progress), and returns at once. It and the threads it makes run
  // kBackgroundNiceIncrement nice levels below the caller's thread (at most at 19, the
  // lowest): where cores are few, requests come first (a first build reads every
  // document, and would otherwise take its share of the cores from the requests served
  // meanwhile; bench/RESULTS.md). With a `foreground`, a build also pauses between the
  // pages it reads while requests are served (Foreground::Pause).
  void StartBackground();

  static constexpr int kBackgroundNiceIncrement = 10;
  static constexpr int kMaxNice = 19;

 private:
  // Lowers the calling thread's scheduling priority by kBackgroundNiceIncrement.
  static void YieldToRequests();
  void PrepareAll();
  // The scratch directory's Fs, made on first use. Requires mu_.
  Result<Fs*> ScratchLocked();

  Store& store_;
  const QueryIndex::Logger log_;
  const bool read_only_;
  const Foreground* const foreground_;
  std::mutex mu_;
  std::shared_ptr<Inotify> inotify_;  // shared by the repositories' hand watchers, made on first use
  std::map<std::string, std::shared_ptr<QueryIndex>> indexes_;  // by "domain/repository"
  std::string scratch_dir_;             // guarded by mu_
  bool own_scratch_ = false;            // made here, removed by the destructor
  std::unique_ptr<Fs> scratch_fs_;      // guarded by mu_
  std::atomic<bool> stop_{false};
  std::thread background_;
};

}  // namespace folio::query
