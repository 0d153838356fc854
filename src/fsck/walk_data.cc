// The walk over the data directory: its metadata, domains and where repositories are
// (facts.h). Only reads.
#include "fsck/facts.h"
#include "fsck/walk_util.h"
#include "storage/layout.h"

namespace folio::fsck {
namespace {

using storage::JoinPath;

// A top-level directory: a domain if it has metadata or holds a repository.
void WalkDomainCandidate(Fs& fs, const std::string& dir, DataFacts& d) {
  auto entries = fs.List(dir);
  if (!entries.ok()) return;
  SortByName(*entries);
  bool has_meta = false;
  std::vector<std::string> repos, temps;
  std::vector<SpecialFile> specials;
  for (const DirEntry& e : *entries) {
    const std::string path = JoinPath(dir, e.name);
    if (e.name == storage::kMetaDir) {
      has_meta = true;
    } else if (storage::IsTempName(e.name)) {
      temps.push_back(path);  // a repository whose creation was interrupted
    } else if (storage::IsReservedName(e.name)) {
      continue;
    } else if (e.type == FileType::kSymlink || e.type == FileType::kOther) {
      specials.push_back({path, e.type, "a repository"});
    } else if (e.type == FileType::kDirectory) {
      const std::string meta_path = JoinPath(path, storage::kMetaDir);
      auto meta = fs.Stat(meta_path);
      if (meta.ok() && meta->type == FileType::kDirectory) repos.push_back(path);
      // A repository whose metadata is a symlink is not served (objectNotFound): say so.
      if (meta.ok() && (meta->type == FileType::kSymlink || meta->type == FileType::kOther)) {
        specials.push_back({meta_path, meta->type, "a repository's metadata"});
      } else if (!meta.ok() && meta.status().Is(std::errc::too_many_symbolic_link_levels)) {
        specials.push_back({meta_path, FileType::kSymlink, "a repository's metadata"});
      }
    }
  }
  if (!has_meta && repos.empty()) return;  // not Folio's
  DomainFact dom;
  dom.dir = dir;
  const std::string meta_dir = JoinPath(dir, storage::kMetaDir);
  auto meta_entries = fs.List(meta_dir);
  if (meta_entries.ok()) {
    for (const DirEntry& e : *meta_entries) {
      if (storage::IsTempName(e.name)) temps.push_back(JoinPath(meta_dir, e.name));
    }
  }
  auto j = storage::ReadJsonFile(fs, storage::DomainFile(dir));
  if (j.ok()) {
    dom.meta = std::move(*j);
  } else if (IsMissing(j.status())) {
    dom.meta_error = "missing domain record '" + storage::DomainFile(dir) + "'";
  } else {
    dom.meta_error = j.status().message();
  }
  d.domains.push_back(std::move(dom));
  for (std::string& r : repos) d.repositories.push_back(std::move(r));
  for (std::string& t : temps) d.temps.push_back(std::move(t));
  for (SpecialFile& s : specials) d.specials.push_back(std::move(s));
}

}  // namespace

Result<DataFacts> WalkData(Fs& fs) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> top, fs.List(""));
  SortByName(top);
  DataFacts d;
  for (const DirEntry& e : top) {
    if (e.name == storage::kMetaDir) continue;
    if (storage::IsTempName(e.name)) {
      d.temps.push_back(e.name);  // a domain whose creation was interrupted
    } else if (storage::IsReservedName(e.name)) {
      continue;
    } else if (e.type == FileType::kSymlink || e.type == FileType::kOther) {
      d.specials.push_back({e.name, e.type, "a domain"});
    } else if (e.type == FileType::kDirectory) {
      WalkDomainCandidate(fs, e.name, d);
    }
  }
  auto meta_entries = fs.List(storage::ServerMetaDir());
  if (meta_entries.ok()) {
    SortByName(*meta_entries);
    for (const DirEntry& e : *meta_entries) {
      const std::string path = JoinPath(storage::ServerMetaDir(), e.name);
      if (storage::IsTempName(e.name)) {
        d.temps.push_back(path);
      } else if (storage::IsServerTrashName(e.name)) {
        d.trash.push_back(path);  // a domain or repository whose deletion was interrupted
      } else if (e.type == FileType::kSymlink || e.type == FileType::kOther) {
        d.specials.push_back({path, e.type});
      }
    }
  }
  const std::string meta_file = storage::DataMarkerFile();
  auto j = storage::ReadJsonFile(fs, meta_file);
  if (j.ok()) {
    d.meta = std::move(*j);
  } else if (IsMissing(j.status())) {
    d.meta_error = "missing data directory marker '" + meta_file + "'";
  } else {
    d.meta_error = j.status().message();
  }
  std::sort(d.repositories.begin(), d.repositories.end());
  return d;
}

}  // namespace folio::fsck
