// The parts of an open repository, wired together; folio::Repository is its facade.
// Each part is one concept (see its header), in the folder of its group:
// - lookup/ (reads only, never commits): finding objects (Locator), reading records
//   (RecordReader), building objects (ObjectBuilder), folder listings (Listings), the
//   tree below a folder (Tree), an object's relationships (Relationships);
// - hand_edits/: adoption of hand-made files (Adopter) and of folders removed or moved
//   by hand (Vanished), what a folder's parent knows of it (FolderMarkers), and the one
//   component that takes them in (Reconciler);
// - changes/: staging helpers (Staging), moving or renaming an object (Relocation), the
//   operations Creator, Updater, Remover, Mover, and the upload area (Uploads);
// - versions/: check-out, check-in and their cancel (Versioning), the version lists;
// - types/: type definitions and whether a type is in use (TypeUsage);
// and, beside them, the commit path (storage::Committer) and who could read a deleted
// object (DeletionReaders).
// Each part takes the Engine (and only its own settings) and reaches its siblings
// through it; its header names the ones it uses ("Uses: ...").
#pragma once

#include <memory>
#include <string>

#include "folio/repository.h"
#include "repo/changes/creator.h"
#include "repo/changes/mover.h"
#include "repo/changes/relocation.h"
#include "repo/changes/remover.h"
#include "repo/changes/staging.h"
#include "repo/changes/updater.h"
#include "repo/changes/uploads.h"
#include "repo/deletion_readers.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/adopter.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/hand_edits/reconciler.h"
#include "repo/hand_edits/vanished.h"
#include "repo/lookup/listings.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "repo/lookup/record_reader.h"
#include "repo/lookup/relationships.h"
#include "repo/lookup/tree.h"
#include "repo/types/type_usage.h"
#include "repo/types/types.h"
#include "repo/versions/version_list.h"
#include "repo/versions/versioning.h"
#include "storage/committer.h"
#include "storage/layout.h"
#include "storage/overlay_fs.h"

namespace folio::repo {

struct EngineOptions {
  bool read_only = false;
  storage::CommitterOptions committer;
  size_t version_list_max = versions::kDefaultVersionListMax;  // see repo/versions/version_list.h
  RepositoryCaches caches = {};  // every cache's bound (folio/repository_caches.h)
};

class Engine {
 public:
  // Requires: `raw` outlives the engine.
  Engine(Fs& raw, std::string base, EngineOptions options);
  // Reads repository.json and, for a writer, completes what a dead process left.
  // Errors: kObjectNotFound if there is no repository at `base`; kStorage.
  Status Load();

  // In construction order. A part (Locator to TypeUsage) keeps the Engine and reaches
  // its siblings through it from its member functions only: its constructor must not
  // touch a sibling (the engine is not complete yet; later parts are not built).
  // What a read-only repository adopts stays here, in memory (docs/STORAGE.md §9).
  storage::OverlayFs overlay;
  storage::ConflictCheckingFs fs;
  storage::RepoLayout layout;
  RepositoryInfo info;
  const bool read_only;
  storage::Committer committer;
  types::TypeRegistry types;
  lookup::RecordReader records;
  versions::VersionList versions;
  hand_edits::AdoptedDocs adopted;
  changes::Staging staging;
  lookup::Locator locator;
  hand_edits::Adopter adopter;
  hand_edits::Vanished vanished;
  hand_edits::FolderMarkers markers;
  hand_edits::Reconciler reconciler;
  lookup::ObjectBuilder builder;
  lookup::Listings listings;
  lookup::Tree tree;
  changes::Relocation relocation;
  changes::Creator creator;
  changes::Updater updater;
  versions::Versioning versioning;
  changes::Remover remover;
  changes::Mover mover;
  lookup::Relationships relationships;
  types::TypeUsage type_usage;
  changes::Uploads uploads;
  DeletionReaders deletions;
};

}  // namespace folio::repo
