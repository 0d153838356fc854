// The change feed the query index follows: the repository's own change log
// (Repository::ReadChanges, docs/STORAGE.md §8.6). The engine records one event per
// created, updated or deleted object inside the same atomic change as the files (files
// added or edited by hand too, when the engine adopts them), with consecutive tokens
// shared by every process on the data directory. So an index that has applied the
// events up to token T holds every change acknowledged up to T, whatever process made
// it and whatever crash came between.
#pragma once

#include <string>

#include "folio/fs.h"
#include "repo/query/change_event.h"

namespace folio::query {

class ChangeLogFeed : public ChangeFeed {
 public:
  // `changes_dir`: the repository's change log directory as a path of `fs`
  // (layout.h ChangesDir), for the fingerprint.
  ChangeLogFeed(Fs& fs, std::string changes_dir) : fs_(fs), changes_dir_(std::move(changes_dir)) {}

  std::string id() const override { return "change-log"; }
  // The newest segment file's name, size, time and inode: every event appended changes
  // it. Two calls cost a directory listing and a stat, not a read of the log.
  Result<std::string> Fingerprint(Repository& repo) override;
  Result<uint64_t> LatestToken(Repository& repo) override;
  // Reads from `after_token` itself and checks that the log still holds it: a log that
  // dropped it (retention: kConstraint from ReadChanges) or never had it (a log made
  // anew, shorter) is a gap.
  Result<ChangeBatch> ReadChanges(Repository& repo, uint64_t after_token, size_t max) override;

 private:
  Fs& fs_;
  const std::string changes_dir_;
};

}  // namespace folio::query
