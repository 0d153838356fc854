// The query indexes of every repository a server serves: made on first use, kept for
// the life of the server, built in the background at start so that the first query of
// a large repository does not wait for it (the ready line never waits for it either).
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
std::shared_ptr<QueryIndex> MakeQueryIndex(Fs& fs, const std::string& base, QueryIndex::Logger log = {});

class QueryIndexes {
 public:
  // `store` must outlive this object; `log` receives progress and failures (one line
  // each, from any thread).
  explicit QueryIndexes(Store& store, QueryIndex::Logger log = {});
  // Stops the background builds (they resume at the next start) and waits for them.
  ~QueryIndexes();
  QueryIndexes(const QueryIndexes&) = delete;
  QueryIndexes& operator=(const QueryIndexes&) = delete;

  // The index of repository `domain_id`/`repository_id` (the same object for the life of
  // this one). It lives in the repository's metadata (IndexFileOf).
  std::shared_ptr<QueryIndex> Get(const std::string& domain_id, const std::string& repository_id);

  // Starts one thread that makes every repository's index ready, one repository after
  // the other (logging progress), and returns at once. It and the threads it makes run
  // kBackgroundNiceIncrement nice levels below the caller's thread (at most at 19, the
  // lowest): where cores are few, requests come first (a first build reads every
  // document, and would otherwise take its share of the cores from the requests served
  // meanwhile; bench/RESULTS.md).
  void StartBackground();

  static constexpr int kBackgroundNiceIncrement = 10;
  static constexpr int kMaxNice = 19;

 private:
  // Lowers the calling thread's scheduling priority by kBackgroundNiceIncrement.
  static void YieldToRequests();
  void PrepareAll();

  Store& store_;
  const QueryIndex::Logger log_;
  std::mutex mu_;
  std::shared_ptr<Inotify> inotify_;  // shared by the repositories' hand watchers, made on first use
  std::map<std::string, std::shared_ptr<QueryIndex>> indexes_;  // by "domain/repository"
  std::atomic<bool> stop_{false};
  std::thread background_;
};

}  // namespace folio::query
