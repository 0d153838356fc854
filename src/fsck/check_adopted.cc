// Checks of adoption tables (docs/STORAGE.md §4.1): the tables themselves, the folder
// each belongs to, and each entry against its file and the folder's series.
#include <map>

#include "fsck/checks.h"

namespace folio::fsck {
namespace {

std::string EntryName(const AdoptedFact& a) {
  return "entry '" + a.name + "' ('" + a.entry.series_id + "') of adoption table '" + a.table + "'";
}

Action OnEntry(Action::Kind kind, const AdoptedFact& a) {
  Action act = Act(kind, a.table);
  act.object = a.name;
  return act;
}

const SeriesFact* SeriesAt(const RepoFacts& f, const std::string& object_path) {
  for (const SeriesFact& s : f.series) {
    if (s.ObjectPath() == object_path) return &s;
  }
  return nullptr;
}

}  // namespace

Problems CheckAdoptionTables(const RepoFacts& f) {
  Problems out;
  for (const BadAdoptedFile& b : f.bad_adopted) {
    out.push_back(MakeProblem(kAdoptedTableUnreadable, b.path, b.problem, Act(Action::Kind::kMoveToLostFound, b.path)));
  }
  return out;
}

Problems CheckAdoptedFolders(const RepoFacts& f) {
  std::map<std::string, size_t> entries;  // by folder id
  for (const AdoptedFact& a : f.adopted) ++entries[a.folder_id];
  Problems out;
  for (const AdoptedFolderFact& d : f.adopted_folders) {
    if (!d.gone) continue;
    const size_t n = entries[d.folder_id];
    out.push_back(MakeProblem(kAdoptedFolderGone, d.dir,
                              "adoption tables '" + d.dir + "' of folder '" + d.folder_id +
                                  "', which is no folder of the repository (removed by hand?), hold " +
                                  std::to_string(n) + (n == 1 ? " document" : " documents"),
                              Act(Action::Kind::kForgetAdoptedFolder, d.dir)));
  }
  return out;
}

Problems CheckAdoptedFiles(const RepoFacts& f) {
  Problems out;
  for (const AdoptedFact& a : f.adopted) {
    if (!a.Standing() || a.Shown()) continue;
    const std::string what = a.visible_stat ? "file '" + a.visible + "' is not a regular file"
                                            : "missing file '" + a.visible + "'";
    out.push_back(MakeProblem(kAdoptedFileMissing, a.visible,
                              what + " of adopted document '/" + a.ObjectPath() + "' (" + EntryName(a) +
                                  "): removed by hand?",
                              OnEntry(Action::Kind::kDropAdoptedEntry, a)));
  }
  return out;
}

Problems CheckAdoptedShadowed(const RepoFacts& f) {
  Problems out;
  for (const AdoptedFact& a : f.adopted) {
    if (!a.folder || !a.shadowed || a.lower_table != 0) continue;
    // A series that cannot be read is sidecar-unparseable's: once it is set aside, the
    // entry stands again.
    const SeriesFact* s = SeriesAt(f, a.ObjectPath());
    if (s == nullptr || !s->series) continue;
    out.push_back(MakeProblem(kAdoptedEntryShadowed, a.visible,
                              EntryName(a) + " is shadowed by the series '" + s->dir + "' ('" +
                                  s->series->series_id + "') of the same name, which takes precedence",
                              OnEntry(Action::Kind::kDropAdoptedEntry, a)));
  }
  return out;
}

Problems CheckAdoptedNames(const RepoFacts& f) {
  // The tables holding each name of a known folder, lowest first (f.adopted is in
  // table order).
  std::map<std::pair<std::string, std::string>, std::vector<const AdoptedFact*>> by_name;
  std::vector<std::pair<std::string, std::string>> order;
  for (const AdoptedFact& a : f.adopted) {
    if (!a.folder) continue;
    auto& group = by_name[{a.folder_id, a.name}];
    if (group.size() == 1) order.push_back({a.folder_id, a.name});
    group.push_back(&a);
  }
  Problems out;
  for (const auto& key : order) {
    const auto& group = by_name[key];
    const AdoptedFact& kept = *group.front();
    std::string others;
    for (size_t i = 1; i < group.size(); ++i) {
      others += (i > 1 ? ", '" : "'") + group[i]->table + "' ('" + group[i]->entry.series_id + "')";
    }
    out.push_back(MakeProblem(kAdoptedNameDuplicate, kept.visible,
                              "'" + kept.name + "' has entries in more than one adoption table of its folder: " +
                                  EntryName(kept) + " is used, not those in " + others,
                              OnEntry(Action::Kind::kDropAdoptedDuplicates, kept)));
  }
  return out;
}

Problems CheckAdoptedEdits(const RepoFacts& f) {
  Problems out;
  for (const AdoptedFact& a : f.adopted) {
    if (!a.Shown()) continue;
    const FileStat& st = *a.visible_stat;
    std::string differs;
    auto add = [&](const std::string& what) { differs += (differs.empty() ? "" : ", ") + what; };
    if (st.size != a.entry.file_size) {
      add("size " + std::to_string(st.size) + " instead of " + std::to_string(a.entry.file_size));
    }
    if (st.mtime_ns != a.entry.file_mtime_ns) add("another modification time");
    if (st.inode != a.entry.file_inode) add("another inode");
    if (differs.empty()) continue;
    out.push_back(MakeProblem(kAdoptedFileEdited, a.visible,
                              "file '" + a.visible + "' of adopted document '/" + a.ObjectPath() + "' (" +
                                  EntryName(a) + ") changed since Folio last looked (" + differs +
                                  "): an edit by hand, which Folio takes in when it next reads it",
                              OnEntry(Action::Kind::kAbsorbAdopted, a)));
  }
  return out;
}

}  // namespace folio::fsck
