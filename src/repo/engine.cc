// Wiring the parts of a repository; see engine.h.
#include "repo/engine.h"

#include "storage/datetime.h"
#include "storage/json_access.h"
#include "storage/json_file.h"

namespace folio::repo {

Engine::Engine(Fs& raw, std::string base, EngineOptions options)
    : overlay(raw),
      fs(overlay, raw),
      layout(std::move(base)),
      read_only(options.read_only),
      committer(raw, layout, [&] {
        storage::CommitterOptions c = options.committer;
        c.read_only = options.read_only;
        // Records this process writes are kept parsed: a request reads back what it or
        // the previous one has just written (series.json, the working copy) without a
        // read. Called only once the engine is built (by the first change).
        c.on_json_written = [this](const std::string& path, const FileStat& st,
                                   std::shared_ptr<const storage::Json> value) {
          records.Remember(path, st, std::move(value));
        };
        return c;
      }()),
      types(fs, layout, &committer),
      records(fs, layout, options.caches),
      versions(fs, layout, options.version_list_max),
      adopted(fs, layout, records, options.caches),
      staging(fs, layout),
      locator(*this, [this] { committer.WaitForWriters(); }, options.caches.known_paths),
      adopter(*this),
      vanished(*this),
      markers(*this),
      reconciler(*this),
      builder(*this, options.caches.documents),
      listings(*this),
      tree(*this),
      relocation(*this),
      creator(*this),
      updater(*this),
      versioning(*this),
      remover(*this),
      mover(*this),
      relationships(*this),
      type_usage(*this),
      uploads(fs, layout, options.read_only),
      deletions(committer.change_log()) {
  committer.set_overlay(&overlay);
}

Status Engine::Load() {
  auto j = storage::ReadJsonFile(fs, layout.RepositoryFile());
  if (!j.ok()) {
    // A symlink on the way (the repository or its domain is one) is never followed:
    // no repository there, as for any entry that is not a directory.
    if (IsMissing(j.status()) || j.status().Is(std::errc::too_many_symbolic_link_levels)) {
      return ObjectNotFound("no repository '" + layout.base() + "'");
    }
    return j.status();
  }
  const Json& r = *j;
  auto id = storage::StringField(r, "repositoryId");
  auto root = storage::StringField(r, "rootFolderId");
  auto variant = storage::StringField(r, "variant");
  for (auto [key, value] : {std::pair{"repositoryId", &id}, {"rootFolderId", &root}, {"variant", &variant}}) {
    if (!*value) return StorageError("'" + layout.RepositoryFile() + "' lacks the field '" + key + "'");
  }
  info.domain_id = storage::ParentPath(layout.base());
  info.repository_id = *id;
  info.name = storage::StringOr(r, "repositoryName", info.repository_id);
  info.description = storage::StringOr(r, "description", "");
  info.variant = *variant;
  info.created_ms = storage::StoredIsoMsOr(storage::StringOr(r, "created", ""), 0);
  info.root_folder_id = *root;
  // A writer completes what an interrupted process committed (cheap: the log is
  // usually empty).
  return committer.Open();
}

}  // namespace folio::repo
