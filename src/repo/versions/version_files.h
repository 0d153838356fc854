// Owner of the promise "an earlier version never changes, and a working copy
// changes only through requests on it" (docs/STORAGE.md §4.2, Rules V1-V5). Every path
// that makes, links or renames a content file of a version series (create, setContent,
// check-out, check-in, cancel, deleting a version, adoption, a hand edit taken in)
// stages it through Staging::StageVisibleAndSeries (V1), the functions below, or, for
// a check-in, versions::PlanCheckIn (which decides where the new version's content
// comes from, V3/V4) and versions::CheckInStaging.
//
// Rule V1. The visible file F/N shares its inode with at most one file: the content
//   file of its series' latest version. Nothing else a hand edit must not reach (an
//   earlier version's content, the working copy's) is ever another name of it.
// Rule V2. A hand edit of the visible file, in place or by replacing it, is an update of
//   the latest version (as setContent: no new version, docs/STORAGE.md §4 `file`); it is
//   taken in before a change makes that version an earlier one.
// Rule V3. A working copy's content is its own file: a check-out copies the version's
//   content (blocks shared by FICLONE where the filesystem can, else copied), never
//   links it. A check-in without content turns it into the new version's content by a
//   rename only while it has no other name (data of older Folio linked it), else by a
//   copy. So every content file of a series (versions, working copy) is its own inode.
// Rule V4. A change that makes the latest version an earlier one (a check-in) gives the
//   visible file another inode in the same change: the new version's content, or an
//   empty file.
// Rule V5. Each version record's `content` holds the size and the SHA-256 of its bytes
//   (`sha256`; absent in data written before digests, and after a hand edit taken in:
//   unknown). fsck reports an earlier version or a working copy whose bytes no longer
//   match (`version-content-changed`, `content-length-mismatch`); --repair never
//   rewrites a record to accept changed content.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "folio/fs.h"
#include "folio/status.h"
#include "repo/records.h"
#include "storage/change_set.h"

namespace folio::repo::versions {

// Stages the working copy's content `pwc_content` as a copy of `version_content` (Rule
// V3). The bytes are read when the change is prepared, under the repository's lock.
void StageWorkingCopyContent(storage::ChangeSet& change, const std::string& pwc_content,
                             const std::string& version_content);

// Rule V2: the visible file `visible` as found, when it is the file `content` (a
// version's content, one inode) and was changed in place since Folio wrote it (its
// size or time is not what `series` records): that version's bytes are then not what
// its record says until the edit is taken in. nullopt otherwise.
std::optional<FileStat> EditedInPlace(Fs& fs, const std::string& visible, const std::string& content,
                                      const SeriesRecord& series);
// What a record's content description becomes for bytes edited in place by hand, not
// read: the file's size, an unknown digest (Rule V5).
void DescribeEdited(ContentInfo& content, const FileStat& edited);

// SHA-256 of bytes, as 64 lowercase hex digits (Rule V5).
std::string Sha256Hex(std::string_view bytes);
// SHA-256 of the file at `path`, read whole. Errors: kStorage (as Fs reports them).
Result<std::string> Sha256OfFile(Fs& fs, const std::string& path);

// An incremental SHA-256 (an upload hashes what it is sent as it arrives).
class Sha256Stream {
 public:
  Sha256Stream();
  void Add(std::string_view bytes);
  // The digest of everything added; the stream then starts again empty.
  std::string FinishHex();

 private:
  alignas(8) unsigned char state_[128];  // libsodium's crypto_hash_sha256_state
};

// The value of cmis:contentStreamHash (CMIS 1.1 §2.1.4.3.4) for a SHA-256 in hex.
inline std::string ContentStreamHash(const std::string& sha256_hex) { return "{sha-256}" + sha256_hex; }

}  // namespace folio::repo::versions
