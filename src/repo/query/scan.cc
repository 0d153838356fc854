// Scanning a repository for the query index; see scan.h.
#include "repo/query/scan.h"

#include <deque>

#include "storage/layout.h"

namespace folio::query {
namespace {

constexpr uint64_t kPage = 1000;

bool Gone(const Status& s) { return s.kind() == ErrorKind::kObjectNotFound || s.kind() == ErrorKind::kInvalidArgument; }

}  // namespace

Status ScanRepository(Repository& repo, Fs& fs, const std::function<Status(const ObjectData&)>& visit,
                      const std::atomic<bool>& stop) {
  auto stopped = [&] { return stop.load() ? RuntimeError("the scan was stopped") : OkStatus(); };
  FOLIO_ASSIGN_OR_RETURN(ObjectData root, repo.GetObject(repo.info().root_folder_id));
  FOLIO_RETURN_IF_ERROR(visit(root));
  std::deque<std::string> folders{root.id};
  while (!folders.empty()) {
    const std::string folder = std::move(folders.front());
    folders.pop_front();
    for (uint64_t skip = 0;;) {
      FOLIO_RETURN_IF_ERROR(stopped());
      auto page = repo.GetChildren(folder, skip, kPage);
      if (!page.ok()) {
        if (Gone(page.status())) break;  // removed meanwhile
        return page.status();
      }
      for (const ObjectData& child : page->objects) {
        if (child.base == BaseType::kDocument) {
          auto versions = repo.GetAllVersions(child.id);
          if (!versions.ok()) {
            if (Gone(versions.status())) continue;
            return versions.status();
          }
          for (const ObjectData& v : *versions) {
            if (!v.is_pwc) FOLIO_RETURN_IF_ERROR(visit(v));
          }
          continue;
        }
        FOLIO_RETURN_IF_ERROR(visit(child));
        if (child.base == BaseType::kFolder) folders.push_back(child.id);
      }
      skip += page->objects.size();
      if (!page->has_more || page->objects.empty()) break;
    }
  }
  const RepositoryInfo& info = repo.info();
  const storage::RepoLayout layout(info.domain_id + "/" + info.repository_id);
  auto entries = fs.List(layout.RelationshipsDir());
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return OkStatus();
    return entries.status();
  }
  constexpr std::string_view kSuffix = ".json";
  for (const DirEntry& e : *entries) {
    FOLIO_RETURN_IF_ERROR(stopped());
    if (e.type != FileType::kFile || storage::IsTempName(e.name) || !e.name.ends_with(kSuffix)) continue;
    auto rel = repo.GetObject(e.name.substr(0, e.name.size() - kSuffix.size()));
    if (!rel.ok() || rel->base != BaseType::kRelationship) continue;  // fsck reports stray files
    FOLIO_RETURN_IF_ERROR(visit(*rel));
  }
  return OkStatus();
}

}  // namespace folio::query
