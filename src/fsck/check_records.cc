// Checks of records (sidecars), hand-added objects, ids, the id index and types.
#include <map>
#include <set>

#include "fsck/checks.h"
#include "repo/types/types.h"

namespace folio::fsck {
namespace {

using storage::Json;

std::string Describe(const RecordFact& r) {
  if (r.kind == "relationship") return "relationship '" + r.id + "'";
  if (r.adopted) return "adopted document '/" + r.path + "' ('" + r.id + "')";
  if (r.kind == "folder" && r.path.empty()) return "root folder '" + r.id + "'";
  return r.kind + " '/" + r.path + "' ('" + r.id + "')";
}

// A type file that does not load (malformed, or a broken supertype chain) is one more
// unusable type.
Status LoadType(repo::types::TypeRegistry& registry, const std::string& id) { return registry.Get(id).status(); }

std::map<std::string, const IndexFileFact*> IndexByPath(const RepoFacts& f) {
  std::map<std::string, const IndexFileFact*> out;
  for (const IndexFileFact& i : f.index) out[i.path] = &i;
  return out;
}

}  // namespace

Problems CheckSidecars(const RepoFacts& f) {
  Problems out;
  for (const BadRecord& b : f.bad_records) {
    out.push_back(MakeProblem(kSidecarUnparseable, b.path, b.problem,
                              b.move.empty() ? Action() : Act(Action::Kind::kMoveToLostFound, b.move)));
  }
  // Version records the series lists, and the working copy of a checked-out series
  // (a stray one is pwc-inconsistent).
  for (const SeriesFact& s : f.series) {
    if (!s.series) continue;
    std::set<std::string> wanted(s.all_labels.begin(), s.all_labels.end());
    if (s.series->checked_out) wanted.insert("pwc");
    for (const std::string& label : wanted) {
      auto it = s.labels.find(label);
      if (it == s.labels.end() || !it->second.json || it->second.record) continue;
      out.push_back(MakeProblem(kSidecarUnparseable, it->second.json_path, it->second.record_error,
                                Act(Action::Kind::kMoveToLostFound, it->second.json_path)));
    }
  }
  return out;
}

Problems CheckUnadopted(const RepoFacts& f) {
  Problems out;
  for (const std::string& folder : f.unadopted_folders) {
    const std::string dir = f.layout.Dir(folder);
    if (folder.empty()) {
      const std::string root = f.RootFolderId();
      out.push_back(MakeProblem(kFolderRecordMissing, dir, "no record for the root folder '" + dir + "'",
                                root.empty() ? Action() : Act(Action::Kind::kWriteRootFolder)));
      continue;
    }
    Action adopt = Act(Action::Kind::kAdopt);
    adopt.object = folder;
    out.push_back(MakeProblem(kFolderRecordMissing, dir,
                              "no record for folder '" + dir + "' (Folio adopts it on first use)", adopt));
  }
  for (const std::string& file : f.unadopted_files) {
    const std::string path = f.layout.Dir(file);
    Action adopt = Act(Action::Kind::kAdopt);
    adopt.object = file;
    out.push_back(MakeProblem(kDocumentRecordMissing, path,
                              "no record for file '" + path + "' (Folio adopts it as a document on first use)", adopt));
  }
  return out;
}

IdOwners FindIdOwners(const RepoFacts& f) {
  const auto index = IndexByPath(f);
  std::map<std::string, std::vector<const RecordFact*>> by_id;
  std::vector<std::string> order;
  for (const RecordFact& r : f.records) {
    auto& group = by_id[r.id];
    if (group.empty()) order.push_back(r.id);
    group.push_back(&r);
  }
  IdOwners out;
  for (const std::string& id : order) {
    const auto& group = by_id[id];
    const RecordFact* owner = group.front();
    if (group.size() > 1) {
      auto it = index.find(f.layout.IndexEntry(id));
      if (it != index.end() && it->second->entry) {
        for (const RecordFact* r : group) {
          if (r->kind == it->second->entry->kind && r->path == it->second->entry->path) owner = r;
        }
      }
      for (const RecordFact* r : group) {
        if (r != owner) out.duplicates.push_back({r, owner});
      }
    }
    out.owners.push_back(owner);
  }
  return out;
}

storage::IndexEntry ExpectedEntry(const RecordFact& r) {
  return storage::IndexEntry{r.kind, r.parent.value_or(""), r.name, r.path};
}

Problems CheckIdDuplicates(const RepoFacts& f) {
  Problems out;
  for (const auto& [dup, owner] : FindIdOwners(f).duplicates) {
    const std::string where = dup->adopted ? "entry '" + dup->name + "' of '" + dup->record + "'" : "'" + dup->record + "'";
    const std::string other = owner->adopted ? "entry '" + owner->name + "' of '" + owner->record + "'"
                                             : "'" + owner->record + "'";
    // An adopted document gives its entry up (its file is adopted afresh, with a new id);
    // reported at its file, since one table may hold several.
    Action fix = Act(Action::Kind::kMoveToLostFound, dup->move);
    if (dup->adopted) {
      fix = Act(Action::Kind::kDropAdoptedEntry, dup->record);
      fix.object = dup->name;
    }
    out.push_back(MakeProblem(kIdDuplicate, dup->adopted ? f.layout.Dir(dup->path) : dup->record,
                              "duplicate id '" + dup->id + "' in " + where + ": " + other + " has it too", fix));
  }
  return out;
}

Problems CheckIndex(const RepoFacts& f) {
  const auto index = IndexByPath(f);
  const Action rebuild = Act(Action::Kind::kRebuildIndex);
  std::set<std::string> matched;
  // A root folder without its record yet (a note) still owns its id and entry.
  if (!f.root_record_id && !f.RootFolderId().empty()) matched.insert(f.layout.IndexEntry(f.RootFolderId()));
  Problems out;
  for (const RecordFact* r : FindIdOwners(f).owners) {
    const std::string path = f.layout.IndexEntry(r->id);
    auto it = index.find(path);
    if (r->adopted) {
      // Indexed only once it has a series (docs/STORAGE.md §4.1): an entry would have a
      // lookup look for a series that is not there.
      if (it == index.end()) continue;
      matched.insert(path);
      out.push_back(MakeProblem(kIndexEntryWrong, path,
                                "index entry for " + Describe(*r) +
                                    ", which has none until it has a series of its own",
                                rebuild));
      continue;
    }
    if (it == index.end()) {
      out.push_back(MakeProblem(kIndexEntryMissing, path, "missing index entry for " + Describe(*r), rebuild));
      continue;
    }
    matched.insert(path);
    const IndexFileFact& i = *it->second;
    if (!i.entry) {
      out.push_back(
          MakeProblem(kIndexEntryWrong, path, "unreadable index entry for " + Describe(*r) + ": " + i.error, rebuild));
      continue;
    }
    // 'path' is only a hint (stale below a moved folder): not compared.
    std::string wrong;
    auto differs = [&](const char* field, const std::string& have, const std::string& want) {
      if (have == want) return;
      if (!wrong.empty()) wrong += ", ";
      wrong += std::string(field) + " '" + have + "' instead of '" + want + "'";
    };
    differs("kind", i.entry->kind, r->kind);
    if (r->parent) differs("parent", i.entry->parent, *r->parent);
    differs("name", i.entry->name, r->name);
    if (!wrong.empty()) {
      out.push_back(
          MakeProblem(kIndexEntryWrong, path, "wrong index entry for " + Describe(*r) + ": " + wrong, rebuild));
    }
  }
  // An entry for an adopted document that does not stand (its file or folder gone, its
  // name taken): its deletion is the adopted-* repairs' to record, not the engine's.
  std::set<std::string> adopted;
  for (const AdoptedFact& a : f.adopted) adopted.insert(f.layout.IndexEntry(a.entry.series_id));
  for (const IndexFileFact& i : f.index) {
    if (matched.count(i.path)) continue;
    if (adopted.count(i.path)) {
      out.push_back(MakeProblem(kIndexEntryWrong, i.path,
                                "index entry '" + i.path + "' for the adopted document '" + i.id +
                                    "', which has none until it has a series of its own",
                                rebuild));
      continue;
    }
    out.push_back(MakeProblem(kIndexEntryDangling, i.path,
                              i.id.empty() ? "stray file '" + i.path + "' in the id index"
                                           : "dangling index entry '" + i.path + "': no object has id '" + i.id + "'",
                              rebuild));
  }
  return out;
}

Problems CheckFolderMarkers(const RepoFacts& f) {
  Problems out;
  for (const std::string& dir : f.bad_folder_marker_dirs) {
    out.push_back(MakeProblem(kFolderMarkerMismatch, dir, "folder marker directory '" + dir + "' is not a directory",
                              Act(Action::Kind::kRemoveMarker, dir)));
  }
  // The marker each folder has in its parent, holding its id (one folder per id: a
  // copy holding another folder's id is id-duplicate's).
  std::map<std::string, const RecordFact*> expected;
  for (const RecordFact* r : FindIdOwners(f).owners) {
    if (r->kind == "folder" && !r->path.empty()) expected[f.layout.FolderMarker(r->path)] = r;
  }
  std::set<std::string> seen;
  for (const FolderMarkerFact& m : f.folder_markers) {
    seen.insert(m.path);
    const std::string held = m.id ? "'" + *m.id + "'" : "no id";
    auto it = expected.find(m.path);
    if (it == expected.end()) {
      // A folder removed by hand: its objects' deletion is recorded first
      // (index-entry-dangling), then the marker goes.
      out.push_back(MakeProblem(kFolderMarkerMismatch, m.path,
                                "stale folder marker '" + m.path + "' (holding " + held +
                                    "): no folder with a record is at '/" + m.folder_path + "'",
                                Act(Action::Kind::kRemoveMarker, m.path)));
      continue;
    }
    const RecordFact& folder = *it->second;
    if (m.id == folder.id) continue;
    Action write = Act(Action::Kind::kWriteFolderMarker, m.path);
    write.object = folder.id;
    out.push_back(MakeProblem(kFolderMarkerMismatch, m.path,
                              "folder marker '" + m.path + "' holds " + held + " instead of the id of " +
                                  Describe(folder),
                              write));
  }
  for (const auto& [path, folder] : expected) {
    // A folder whose parent has no record yet gets its marker when the parent is adopted.
    if (seen.count(path) || !folder->parent) continue;
    Action write = Act(Action::Kind::kWriteFolderMarker, path);
    write.object = folder->id;
    out.push_back(MakeProblem(kFolderMarkerMismatch, path,
                              "missing folder marker '" + path + "' of " + Describe(*folder), write));
  }
  return out;
}

Problems CheckTypes(Fs& fs, const RepoFacts& f) {
  repo::types::TypeRegistry registry(fs, f.layout);
  Problems out;
  for (const TypeFileFact& t : f.types) {
    auto bad = [&](const std::string& message) {
      out.push_back(MakeProblem(kTypeUnparseable, t.path, message, Act(Action::Kind::kMoveToLostFound, t.path)));
    };
    if (!t.json) {
      bad(t.error);
      continue;
    }
    auto id = t.json->find("id");
    auto parent = t.json->find("parentId");
    if (id == t.json->end() || !id->is_string() || id->get<std::string>().empty()) {
      bad("missing string field 'id' in type file '" + t.path + "'");
    } else if (parent == t.json->end() || !parent->is_string()) {
      bad("missing string field 'parentId' in type file '" + t.path + "'");
    } else if (repo::types::BuiltInType(id->get<std::string>())) {
      bad("type file '" + t.path + "' redefines the built-in type '" + id->get<std::string>() + "'");
    } else if (f.layout.TypeFile(id->get<std::string>()) != t.path) {
      bad("misnamed type file '" + t.path + "': type '" + id->get<std::string>() + "' belongs in '" +
          f.layout.TypeFile(id->get<std::string>()) + "'");
    } else if (Status type = LoadType(registry, id->get<std::string>()); !type.ok()) {
      bad("unusable type '" + id->get<std::string>() + "' in '" + t.path + "': " + type.message());
    }
  }
  return out;
}

Problems CheckObjectTypes(Fs& fs, const RepoFacts& f) {
  repo::types::TypeRegistry registry(fs, f.layout);
  std::map<std::string, Status> known;
  Problems out;
  for (const TypedRecord& t : f.typed) {
    if (!t.type_id) {
      out.push_back(MakeProblem(kObjectTypeUnknown, t.record, "non-string cmis:objectTypeId in '" + t.record + "'"));
      continue;
    }
    auto it = known.find(*t.type_id);
    if (it == known.end()) it = known.emplace(*t.type_id, LoadType(registry, *t.type_id)).first;
    if (it->second.ok()) continue;
    std::string message = "unknown object type '" + *t.type_id + "' in '" + t.record + "'";
    if (it->second.kind() != ErrorKind::kObjectNotFound) message += ": " + it->second.message();
    out.push_back(MakeProblem(kObjectTypeUnknown, t.record, message));
  }
  return out;
}

}  // namespace folio::fsck
