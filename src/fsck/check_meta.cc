// Checks of the data, domain and repository metadata, and of what interrupted work
// leaves behind (journal records, temp files, trash, uploads); plus symlinks and special files.
#include <regex>

#include "fsck/checks.h"
#include "storage/datetime.h"

namespace folio::fsck {
namespace {

using storage::Json;

std::optional<std::string> StringField(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

Problems CheckDataMeta(const DataFacts& d) {
  if (d.meta) return {};
  return {MakeProblem(kDataMetaMissing, storage::DataMarkerFile(), d.meta_error,
                      Act(Action::Kind::kWriteDataMeta))};
}

Problems CheckDomainMeta(const DataFacts& d) {
  static const std::regex kDomainId("^\\w{3,}$");
  Problems out;
  for (const DomainFact& dom : d.domains) {
    const std::string file = storage::DomainFile(dom.dir);
    if (!std::regex_match(dom.dir, kDomainId)) {
      out.push_back(MakeProblem(kDomainMetaInvalid, file,
                                "invalid domain id '" + dom.dir + "': a domain directory's name must match ^\\w{3,}$"));
    }
    if (!dom.meta) {
      out.push_back(MakeProblem(kDomainMetaInvalid, file, dom.meta_error));
      continue;
    }
    auto id = StringField(*dom.meta, "domainId");
    if (!id) {
      out.push_back(MakeProblem(kDomainMetaInvalid, file, "missing string field 'domainId' in '" + file + "'"));
    } else if (*id != dom.dir) {
      out.push_back(MakeProblem(kDomainMetaInvalid, file,
                                "wrong domainId '" + *id + "' in '" + file + "': the directory is '" + dom.dir + "'"));
    }
  }
  return out;
}

Problems CheckRepositoryMeta(const RepoFacts& f) {
  static const std::regex kRepositoryId("^[a-zA-Z0-9-]{3,}$");
  const std::string file = f.layout.RepositoryFile();
  const std::string dir_name = storage::BaseName(f.base);
  Problems out;
  auto bad = [&](const std::string& message) { out.push_back(MakeProblem(kRepositoryMetaInvalid, file, message)); };
  if (!std::regex_match(dir_name, kRepositoryId)) {
    bad("invalid repository id '" + dir_name + "': a repository directory's name must match ^[a-zA-Z0-9-]{3,}$");
  }
  if (!f.repository_json) {
    bad(f.repository_error);
    return out;
  }
  const Json& r = *f.repository_json;
  auto id = StringField(r, "repositoryId");
  if (!id) {
    bad("missing string field 'repositoryId' in '" + file + "'");
  } else if (*id != dir_name) {
    bad("wrong repositoryId '" + *id + "' in '" + file + "': the directory is '" + dir_name + "'");
  }
  auto variant = StringField(r, "variant");
  if (!variant || (*variant != "A" && *variant != "B")) {
    bad("invalid variant in '" + file + "': must be \"A\" or \"B\"");
  }
  auto root = StringField(r, "rootFolderId");
  if (!root || root->empty()) {
    bad("missing string field 'rootFolderId' in '" + file + "'");
  } else if (f.root_record_id && *f.root_record_id != *root) {
    bad("wrong rootFolderId '" + *root + "' in '" + file + "': the root folder's record holds id '" +
        *f.root_record_id + "'");
  }
  return out;
}

Problems CheckCommitLog(const RepoFacts& f) {
  Problems out;
  const LogFact& l = f.log;
  if (!l.error.empty()) {
    // Its records cannot be told apart: set it aside (a new one is made); the changes
    // it held that had not reached the files are lost, and the checks that follow say
    // what that left.
    out.push_back(MakeProblem(kLogUnreadable, l.path, "unreadable commit log: " + l.error,
                              Act(Action::Kind::kMoveToLostFound, l.path)));
  } else if (l.pending > 0) {
    out.push_back(MakeProblem(kLogPending, l.path,
                              std::to_string(l.pending) + " committed change" + (l.pending == 1 ? "" : "s") +
                                  " in the commit log '" + l.path + "' not known to be applied",
                              Act(Action::Kind::kCompleteLog)));
  }
  return out;
}

Problems CheckJournal(const RepoFacts& f) {
  Problems out;
  for (const JournalFact& j : f.journal) {
    if (j.actions) {
      out.push_back(MakeProblem(
          kJournalPending, j.path,
          "uncompleted change in journal record '" + j.path + "' (" + std::to_string(j.actions->size()) + " actions)",
          Act(Action::Kind::kCompleteJournal)));
    } else {
      // Recovery cannot complete a record it cannot read, and would refuse every
      // later change: set it aside.
      out.push_back(MakeProblem(kJournalPending, j.path, "unreadable journal record: " + j.error,
                                Act(Action::Kind::kMoveToLostFound, j.path)));
    }
  }
  return out;
}

Problems CheckTempFiles(const std::vector<std::string>& temps) {
  Problems out;
  for (const std::string& t : temps) {
    out.push_back(MakeProblem(kLeftoverTempFile, t, "leftover temporary file '" + t + "' of an interrupted write",
                              Act(Action::Kind::kRemove, t)));
  }
  return out;
}

Problems CheckTrash(const std::vector<std::string>& trash) {
  Problems out;
  for (const std::string& t : trash) {
    out.push_back(MakeProblem(kTrashLeftover, t, "leftover trash '" + t + "' of an interrupted deletion",
                              Act(Action::Kind::kRemove, t)));
  }
  return out;
}

Problems CheckUploads(const RepoFacts& f, int64_t now_ns) {
  constexpr int64_t kHourNs = 3600LL * 1000000000LL;
  Problems out;
  for (const AgedFile& u : f.uploads) {
    const int64_t age = now_ns - u.mtime_ns;
    if (age <= kHourNs) continue;
    out.push_back(
        MakeProblem(kUploadLeftover, u.path,
                    "abandoned upload '" + u.path + "' (" + std::to_string(age / (60 * 1000000000LL)) + " minutes old)",
                    Act(Action::Kind::kRemove, u.path)));
  }
  return out;
}

Problems CheckSpecialFiles(const std::vector<SpecialFile>& specials) {
  Problems out;
  for (const SpecialFile& s : specials) {
    const std::string what = s.type == FileType::kSymlink ? "symbolic link '" : "special file '";
    if (s.in_place_of != nullptr) {
      // Where a domain or repository is looked for: what the operator meant to be served
      // is not, which is worth a warning (nothing for --repair to do: it is theirs).
      out.push_back(MakeProblem(kSymlinkNotServed, s.path,
                                what + s.path + "' in place of " + s.in_place_of +
                                    ": Folio does not follow it, so it is not served (requests answer "
                                    "objectNotFound); move the directory itself there"));
    } else {
      out.push_back(MakeProblem(kSymlinkIgnored, s.path,
                                "ignored " + what + s.path + "': Folio neither follows nor lists it"));
    }
  }
  return out;
}

Problems CheckData(const DataFacts& d) {
  Problems out;
  Append(out, CheckDataMeta(d));
  Append(out, CheckDomainMeta(d));
  Append(out, CheckTempFiles(d.temps));
  Append(out, CheckTrash(d.trash));
  Append(out, CheckSpecialFiles(d.specials));
  return out;
}

Problems CheckRepository(Fs& fs, const RepoFacts& f, bool compare_bytes) {
  const int64_t now_ns = storage::WallNowNs();
  Problems out;
  Append(out, CheckRepositoryMeta(f));
  Append(out, CheckObjectAcls(fs, f));
  Append(out, CheckJournal(f));
  Append(out, CheckCommitLog(f));
  Append(out, CheckTempFiles(f.temps));
  Append(out, CheckTrash(f.trash));
  Append(out, CheckUploads(f, now_ns));
  Append(out, CheckSidecars(f));
  Append(out, CheckUnadopted(f));
  // Unreadable tables are set aside before a gone folder's directory is removed.
  Append(out, CheckAdoptionTables(f));
  Append(out, CheckAdoptedFolders(f));
  Append(out, CheckAdoptedShadowed(f));
  Append(out, CheckAdoptedNames(f));
  Append(out, CheckAdoptedFiles(f));
  Append(out, CheckAdoptedEdits(f));
  Append(out, CheckContentFiles(f));
  Append(out, CheckIdDuplicates(f));
  Append(out, CheckIndex(f));
  Append(out, CheckFolderMarkers(f));
  Append(out, CheckVersionLabels(f));
  Append(out, CheckVersionFiles(f));
  Append(out, CheckContentLengths(fs, f));
  Append(out, CheckVersionContent(fs, f, compare_bytes));
  Append(out, CheckWorkingCopies(f));
  Append(out, CheckMarkers(f));
  Append(out, CheckLatestContent(fs, f, compare_bytes));
  Append(out, CheckTypes(fs, f));
  Append(out, CheckObjectTypes(fs, f));
  Append(out, CheckSpecialFiles(f.specials));
  Append(out, CheckQueryIndex(fs, f));
  return out;
}

}  // namespace folio::fsck
