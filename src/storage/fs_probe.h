// ProbeFilesystem: what the filesystem under a data directory offers of the calls Folio
// prefers (FsFeatures, folio/fs.h), found by trying each one on scratch files, so that a
// writing server opens its PosixFs with the fallbacks it needs (a FUSE or network
// filesystem often lacks rename flags, O_TMPFILE or flock, or keeps whole seconds),
// says in one line what it chose, and refuses to start where it could not keep its
// promises (docs/STORAGE.md, "What Folio needs of a filesystem").
//
// It writes: call it only for a server or tool that will write the data directory
// (never for --read-only, inspect or fsck without --repair). Every scratch name is a
// temporary (storage/layout.h, IsTempName) inside one directory made for the probe and
// removed before it returns, whatever happened; a crash in between leaves a temporary
// that the next start removes as any other.
#pragma once

#include <string>
#include <vector>

#include "folio/fs.h"
#include "storage/fs_features.h"

namespace folio::storage {

struct FsProbe {
  FsFeatures features;
  // The filesystem's kind as the kernel names it ("ext4", "fuse.mfs", "nfs4", "ceph").
  std::string type;
  // What Folio cannot do without (each a sentence naming the call and the error): a
  // plain rename over a file, fsync of a file, any kind of lock, a name taken without
  // replacing (RENAME_NOREPLACE, hard links or flock). Non-empty: refuse to write.
  std::vector<std::string> missing;
};

// Probes the directory `root` (an existing data directory). Environment: FOLIO_FS_WITHOUT,
// a comma-separated list of FsFeatures names (rename_noreplace, rename_exchange, openat2,
// flock, ofd_locks, hard_links, fine_timestamps, dir_fsync, tmpfile) or "all", reports
// those as missing whatever the filesystem has (tests of the fallbacks on a local disk).
// Errors: kStorage when the probe's own directory cannot be made (a read-only directory
// says so with cause() read_only_file_system or permission_denied: no writer can use it).
Result<FsProbe> ProbeFilesystem(const std::string& root);

// Without writing: true when `root` and the entries directly in it all have whole-second
// modification and change times (a filesystem keeping whole seconds, as MooseFS does),
// for a reader that does not probe. False when it cannot tell.
bool SeesWholeSecondTimestamps(const std::string& root);

// Adapts process-wide behaviour to the probed filesystem: with whole-second timestamps,
// what Folio caches of a file changed within the last second and a tenth is read again
// (storage/datetime.h, WidenRacyWindow).
void AdaptToFilesystem(const FsFeatures& features);

// For a reader that does not probe (it must not write): AdaptToFilesystem with whole-
// second timestamps when SeesWholeSecondTimestamps(root).
void AdaptWithoutProbing(const std::string& root);

// `features` with those named in `without` (FOLIO_FS_WITHOUT's syntax) turned off.
// Errors: kInvalidArgument naming an unknown feature.
Result<FsFeatures> WithoutFeatures(FsFeatures features, const std::string& without);

// The DescribeChoices line of the last ProbeFilesystem of `root` (the same path, as
// given) in this process, for the server's log; "" when it was not probed.
std::string ProbedChoices(const std::string& root);

// One line for the log: the filesystem's kind and the way chosen for each need, e.g.
// "filesystem fuse.mfs: rename without replacing by link then unlink (no RENAME_NOREPLACE), ...".
std::string DescribeChoices(const FsProbe& probe);

// OK, or kStorage naming the data directory `root` and every missing call, and what
// to do (docs/DEPLOY.md lists the filesystems Folio runs on).
Status RequireUsable(const FsProbe& probe, const std::string& root);

}  // namespace folio::storage
