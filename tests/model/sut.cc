// The system under test of the model-based test; see sut.h.
#include "model/sut.h"

#include <algorithm>
#include <functional>
#include <stdlib.h>

#include <filesystem>
#include <set>
#include <stdexcept>

#include "folio/fsck.h"
#include "folio/store.h"
#include "repo/query/binder.h"
#include "repo/query/change_log_feed.h"
#include "repo/query/parser.h"
#include "repo/versions/version_reuse.h"
#include "storage/layout.h"

namespace folio::model {

namespace {

// A data directory holding domain "demo" with the empty repository "main", made once
// and cloned for each Sut.
const storage::MemFs& Prototype() {
  static const storage::MemFs made = [] {
    storage::MemFs fs;
    {
      auto store = Store::Open(fs, StoreOptions{});
      RepositoryInfo info;
      info.repository_id = "main";
      if (!store.ok() || !(*store)->CreateDomain("demo", "").ok() || !(*store)->CreateRepository("demo", info).ok()) {
        throw std::runtime_error("cannot make the model test's repository");
      }
    }
    if (!fs.SyncAll().ok()) throw std::runtime_error("cannot sync the model test's repository");
    return fs;
  }();
  return made;
}

std::string Description(const ObjectData& o) {
  auto it = o.properties.find("cmis:description");
  return it != o.properties.end() && it->is_string() ? it->get<std::string>() : "";
}

std::set<std::string> Readers(const ObjectData& o) {
  std::set<std::string> out;
  for (const Ace& ace : o.acl) {
    if (std::find(ace.permissions.begin(), ace.permissions.end(), "cmis:read") != ace.permissions.end()) {
      out.insert(ace.principal);
    }
  }
  return out;
}

std::string Content(Repository& repo, const ObjectData& o) {
  if (!o.content) return "<no content>";
  auto s = repo.OpenContent(o);
  if (!s.ok()) return "<" + s.status().ToString() + ">";
  std::string out;
  char buf[4096];
  for (;;) {
    auto n = s->file->Read(buf, sizeof buf);
    if (!n.ok()) return "<" + n.status().ToString() + ">";
    if (*n == 0) return out;
    out.append(buf, *n);
  }
}

// A boolean property as "true", "false" or "null".
std::string Flag(const ObjectData& o, const char* id) {
  auto it = o.properties.find(id);
  if (it == o.properties.end()) return "missing";
  return it->dump();
}

class PathCollector : public TreeVisitor {
 public:
  Status Enter(const ObjectData& object, int64_t) override {
    paths.insert(object.base == BaseType::kFolder ? object.path + "/" : object.path);
    return OkStatus();
  }
  Status Leave() override { return OkStatus(); }
  std::set<std::string> paths;
};

// What the served getAllVersions keeps of earlier versions (api/ops/versioning_ops.cc),
// here whole objects: given again for an equal stamp (repo/versions/version_reuse.h).
class KeptObjects final : public repo::versions::VersionReuse {
 public:
  explicit KeptObjects(std::map<std::string, std::pair<std::string, ObjectData>>& kept) : kept_(kept) {}
  bool Has(const std::string& id, const std::string& stamp) override {
    const auto it = kept_.find(id);
    found_ = it != kept_.end() && it->second.first == stamp ? &it->second.second : nullptr;
    return found_ != nullptr;
  }
  // The object Has found (requires: Has said true).
  const ObjectData& found() const { return *found_; }

 private:
  std::map<std::string, std::pair<std::string, ObjectData>>& kept_;
  const ObjectData* found_ = nullptr;
};

}  // namespace

uint64_t& Sut::StepsRun() {
  static uint64_t steps = 0;
  return steps;
}

Sut::Sut() : disk_(Prototype().Clone()) {
  // SQLite syncs its file at every transaction: on tmpfs that costs nothing.
  std::error_code ec;
  const std::filesystem::path base =
      std::filesystem::is_directory("/dev/shm", ec) ? std::filesystem::path("/dev/shm") : std::filesystem::temp_directory_path();
  std::string tmpl = (base / "folio-model-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("cannot make a directory in " + base.string());
  index_dir_ = tmpl;
  OpenQueryIndex();
  Reopen();
}

Sut::~Sut() {
  Close();
  index_.reset();
  std::error_code ec;
  std::filesystem::remove_all(index_dir_, ec);
}

void Sut::Close() { repo_.reset(); }

void Sut::OpenQueryIndex() {
  const storage::RepoLayout layout(kBase);
  query::IndexPaths paths;
  paths.label = kBase;
  paths.db_path = index_dir_ + "/query.sqlite";
  // Never on the MemFs: the index is opened again before each query (its identity is
  // unknown), which costs an open, not a build.
  paths.db_fs_path = layout.QueryIndexFile();
  paths.lock_fs_path = layout.QueryIndexLockFile();
  index_ = std::make_shared<query::QueryIndex>(disk_, paths,
                                               std::make_shared<query::ChangeLogFeed>(disk_, layout.ChangesDir()));
}

void Sut::Reopen(Fs* fs) {
  Close();
  auto r = Repository::Open(fs ? *fs : disk_, kBase, kRepoOptions);
  if (!r.ok()) throw std::runtime_error("reopening the repository: " + r.status().ToString());
  repo_ = std::move(*r);
  root_id_ = repo_->info().root_folder_id;
}

void Sut::ForgetQueryIndex() {
  index_.reset();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(index_dir_ + "/query.sqlite" + suffix);
  OpenQueryIndex();
}

std::string Sut::Id(int h) const {
  if (h == 0) return root_id_;
  auto it = ids_.find(h);
  return it == ids_.end() ? "" : it->second;
}

void Sut::LearnIds(const Model& m, bool look_up) {
  std::set<int> handles;
  auto learn = [&](int h) {
    handles.insert(h);
    if (!handles_.count(h) && !fresh_.count(h)) ids_.erase(h);
    if (ids_.count(h) || !look_up) return;
    auto o = repo_->GetObjectByPath(m.PathOf(h));
    if (!o.ok()) return;  // Check reports it
    ids_[h] = o->base == BaseType::kDocument ? o->series_id : o->id;
  };
  for (const auto& [h, f] : m.folders) {
    if (h != 0) learn(h);
  }
  for (const auto& [h, d] : m.docs) learn(h);
  if (!look_up) return;
  handles_ = std::move(handles);
  fresh_.clear();
}

void Sut::CheckKeptVersions(const ObjectData& listed, const std::vector<ObjectData>& built, std::string& errors) {
  const std::string where = "/" + listed.path + ": getAllVersions with kept versions: ";
  KeptObjects reuse(kept_versions_);
  std::vector<ObjectData> visited;
  auto visit = repo_->VisitAllVersions(
      listed.series_id, /*newest_first=*/true, [&](size_t) { visited.clear(); },
      [&](const ObjectData& v) {
        if (&v == &reuse.stand_in()) {
          visited.push_back(reuse.found());
        } else {
          if (!reuse.stamp().empty()) kept_versions_[v.id] = {reuse.stamp(), v};
          visited.push_back(v);
        }
        return OkStatus();
      });
  if (!visit.ok()) {
    errors += where + visit.status().ToString() + "\n";
    return;
  }
  std::reverse(visited.begin(), visited.end());  // as `built`: oldest first
  if (visited.size() != built.size()) {
    errors += where + std::to_string(visited.size()) + " objects, built afresh " + std::to_string(built.size()) + "\n";
    return;
  }
  for (size_t i = 0; i < built.size(); ++i) {
    const ObjectData& a = visited[i];
    const ObjectData& b = built[i];
    if (a.id != b.id || a.version_label != b.version_label || a.is_latest != b.is_latest || a.is_pwc != b.is_pwc ||
        a.path != b.path || a.parent_id != b.parent_id || a.properties != b.properties) {
      errors += where + "version " + b.id + " differs from its fresh build: " + a.properties.dump() + " vs " +
                b.properties.dump() + "\n";
    }
  }
}

void Sut::DescribeDocument(const ObjectData& listed, std::vector<std::string>& out, std::string& errors) {
  const std::string where = "/" + listed.path + ": ";
  auto all = repo_->GetAllVersions(listed.series_id);
  if (!all.ok()) {
    errors += where + "getAllVersions: " + all.status().ToString() + "\n";
    return;
  }
  CheckKeptVersions(listed, *all, errors);
  std::vector<ObjectData> versions;
  std::optional<ObjectData> pwc;
  for (ObjectData& v : *all) {
    if (v.is_pwc) {
      pwc = std::move(v);
    } else {
      versions.push_back(std::move(v));
    }
  }
  // Seed §3 rules 1-3: labels, major flags, the latest and latest major version.
  size_t last_major = SIZE_MAX;
  for (size_t i = 0; i < versions.size(); ++i) {
    if (versions[i].version_label.size() > 2 && versions[i].version_label.substr(versions[i].version_label.find('.')) == ".0") {
      last_major = i;
    }
  }
  const std::string checked_out_id = pwc ? "\"" + pwc->id + "\"" : "null";
  for (size_t i = 0; i < versions.size(); ++i) {
    const ObjectData& v = versions[i];
    const std::string at = where + "version " + v.version_label + ": ";
    const bool major = v.version_label.size() > 2 && v.version_label.substr(v.version_label.find('.')) == ".0";
    if (Flag(v, "cmis:versionLabel") != "\"" + v.version_label + "\"") errors += at + "cmis:versionLabel " + Flag(v, "cmis:versionLabel") + "\n";
    if (Flag(v, "cmis:isMajorVersion") != (major ? "true" : "false")) errors += at + "cmis:isMajorVersion " + Flag(v, "cmis:isMajorVersion") + "\n";
    const bool latest = i + 1 == versions.size();
    if (Flag(v, "cmis:isLatestVersion") != (latest ? "true" : "false") || v.is_latest != latest) {
      errors += at + "cmis:isLatestVersion " + Flag(v, "cmis:isLatestVersion") + "\n";
    }
    if (Flag(v, "cmis:isLatestMajorVersion") != (i == last_major ? "true" : "false")) {
      errors += at + "cmis:isLatestMajorVersion " + Flag(v, "cmis:isLatestMajorVersion") + "\n";
    }
    if (Flag(v, "cmis:versionSeriesCheckedOutId") != checked_out_id) {
      errors += at + "cmis:versionSeriesCheckedOutId " + Flag(v, "cmis:versionSeriesCheckedOutId") + "\n";
    }
    if (v.series_id != listed.series_id) errors += at + "series " + v.series_id + "\n";
  }
  std::vector<std::pair<std::string, std::string>> labelled;
  for (const ObjectData& v : versions) labelled.emplace_back(v.version_label, Content(*repo_, v));
  std::optional<std::string> pwc_content;
  if (pwc) pwc_content = Content(*repo_, *pwc);
  // The visible file holds the latest version's content (contract §9), or nothing
  // while the document has no version.
  const std::string expected_visible = labelled.empty() ? "" : labelled.back().second;
  auto visible = ReadWholeFile(disk_, kBase + "/" + listed.path);
  if (!visible.ok() || *visible != expected_visible) {
    errors += where + "the visible file holds " +
              (visible.ok() ? Model::Quote(*visible) : visible.status().ToString()) + "\n";
  }
  const ObjectData& latest = versions.empty() ? (pwc ? *pwc : listed) : versions.back();
  if (latest.id != listed.id) errors += where + "listed as " + listed.id + ", its latest version is " + latest.id + "\n";
  out.push_back(Model::DocLine(listed.path, Description(latest), labelled, pwc_content, pwc ? pwc->name : "",
                               pwc ? Description(*pwc) : "", Readers(latest)));
}

std::vector<std::string> Sut::Describe(const std::string& damaged, std::string& errors) {
  std::vector<std::string> out;
  std::function<void(const std::string&, const std::string&)> walk = [&](const std::string& id,
                                                                          const std::string& path) {
    auto page = repo_->GetChildren(id, 0, 100000);
    if (!page.ok()) {
      errors += "children of /" + path + ": " + page.status().ToString() + "\n";
      return;
    }
    for (const DamagedChild& d : page->damaged) {
      const std::string child = path.empty() ? d.name : path + "/" + d.name;
      if (child != damaged) errors += "/" + path + ": damaged child " + d.name + ": " + d.message + "\n";
    }
    if (page->total != page->objects.size()) errors += "/" + path + ": total " + std::to_string(page->total) + "\n";
    for (const ObjectData& o : page->objects) {
      const std::string child = path.empty() ? o.name : path + "/" + o.name;
      if (o.path != child) errors += "/" + child + ": its path says /" + o.path + "\n";
      if (o.base == BaseType::kFolder) {
        out.push_back(Model::FolderLine(child, Description(o), Readers(o)));
        walk(o.id, child);
      } else if (o.base == BaseType::kDocument) {
        DescribeDocument(o, out, errors);
      } else {
        errors += "/" + child + ": an object of base type " + std::string(BaseTypeId(o.base)) + "\n";
      }
    }
  };
  walk(repo_->info().root_folder_id, "");
  std::sort(out.begin(), out.end());
  return out;
}

std::string Sut::CheckQuery(const Model& m) {
  std::string errors;
  auto run = [&](const std::string& statement) -> std::set<std::string> {
    std::set<std::string> paths;
    auto parsed = query::Parse(statement);
    if (!parsed.ok()) throw std::runtime_error(statement + ": " + parsed.status().ToString());
    auto bound = query::Bind(*parsed, *repo_);
    if (!bound.ok()) {
      errors += statement + ": " + bound.status().ToString() + "\n";
      return paths;
    }
    query::QueryPage page;
    page.max = 100000;
    auto hits = index_->Run(*repo_, *bound, page);
    if (!hits.ok()) {
      errors += statement + ": " + hits.status().ToString() + "\n";
      return paths;
    }
    for (const query::QueryHit& hit : hits->hits) {
      auto o = repo_->GetObject(hit.object_id);
      // As the query operation answers (api/ops/query_ops.cc): a hit whose object is
      // gone since the index took it in, or is damaged, is left out.
      if (!o.ok() && (o.status().kind() == ErrorKind::kObjectNotFound || Repository::IsDamage(o.status()))) continue;
      paths.insert(o.ok() ? "/" + o->path : "<" + hit.object_id + ": " + o.status().ToString() + ">");
    }
    return paths;
  };
  std::set<std::string> docs;
  std::set<std::string> folders{"/"};
  for (const auto& [h, d] : m.docs) {
    if (!d.versions.empty()) docs.insert("/" + m.PathOf(h));
  }
  for (const auto& [h, f] : m.folders) {
    if (h != 0) folders.insert("/" + m.PathOf(h));
  }
  auto compare = [&](const std::string& statement, const std::set<std::string>& expected) {
    const std::set<std::string> got = run(statement);
    for (const std::string& p : expected) {
      if (!got.count(p)) errors += statement + ": misses " + p + "\n";
    }
    for (const std::string& p : got) {
      if (!expected.count(p)) errors += statement + ": finds " + p + "\n";
    }
  };
  compare("SELECT cmis:objectId FROM cmis:document", docs);
  compare("SELECT cmis:objectId FROM cmis:folder", folders);
  return errors;
}

std::string Sut::CheckIds(const Model& m, int damaged) {
  std::string errors;
  for (const auto& [h, id] : ids_) {
    if (h == damaged) continue;
    // A document created checked out has no version yet: its series id resolves to
    // nothing, its working copy to the document.
    const bool pwc_only = m.HasDoc(h) && m.docs.at(h).versions.empty();
    auto o = repo_->GetObject(pwc_only ? id + ";pwc" : id);
    if (!m.Exists(h)) {
      if (o.ok() || o.status().kind() != ErrorKind::kObjectNotFound) {
        errors += "#" + std::to_string(h) + " (" + id + ") was deleted, yet getObject answers " +
                  (o.ok() ? "/" + o->path : o.status().ToString()) + "\n";
      }
      continue;
    }
    if (!o.ok()) {
      errors += "#" + std::to_string(h) + " (" + id + "): " + o.status().ToString() + "\n";
    } else if (o->path != m.PathOf(h)) {
      errors += "#" + std::to_string(h) + " (" + id + ") is at /" + o->path + ", not /" + m.PathOf(h) + "\n";
    }
  }
  return errors;
}

std::string Sut::RunFsckHere() {
  Status s = repo_->Checkpoint();
  if (!s.ok()) return "checkpoint: " + s.ToString() + "\n";
  auto report = RunFsck(disk_, FsckOptions{});
  if (!report.ok()) return "fsck: " + report.status().ToString() + "\n";
  std::string errors;
  for (const Finding& f : report->findings) {
    if (f.severity != Severity::kNote) errors += "fsck: " + f.id + " " + f.path + ": " + f.message + "\n";
  }
  return errors;
}

std::string Sut::Snapshot() {
  std::string out;
  std::function<void(const std::string&)> walk = [&](const std::string& dir) {
    auto entries = disk_.List(dir);
    if (!entries.ok()) {
      out += dir + " " + entries.status().ToString() + "\n";
      return;
    }
    std::sort(entries->begin(), entries->end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    for (const DirEntry& e : *entries) {
      const std::string path = dir.empty() ? e.name : dir + "/" + e.name;
      auto st = disk_.Stat(path);
      out += path;
      if (st.ok()) {
        out += " " + std::to_string(st->inode) + " " + std::to_string(st->size) + " " + std::to_string(st->mtime_ns) +
               " " + std::to_string(st->ctime_ns);
      }
      out += "\n";
      if (e.type == FileType::kDirectory) walk(path);
    }
  };
  walk("");
  return out;
}

std::string Sut::Check(const Model& m, Checks checks) {
  std::string errors;
    const std::vector<std::string> got = Describe(checks.damaged_path, errors);
  const std::vector<std::string> want = m.Describe();
  if (got != want) {
    std::vector<std::string> missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
    for (const std::string& l : missing) errors += "model:  " + l + "\n";
    for (const std::string& l : extra) errors += "engine: " + l + "\n";
  }
  // Descendants and the listings walk the same tree.
  PathCollector collector;
  auto visited = repo_->VisitDescendants(repo_->info().root_folder_id, TreeRequest{}, collector);
  if (!visited.ok()) {
    errors += "descendants: " + visited.status().ToString() + "\n";
  } else {
    std::set<std::string> expected;
    for (const auto& [h, f] : m.folders) {
      if (h != 0) expected.insert(m.PathOf(h) + "/");
    }
    for (const auto& [h, d] : m.docs) expected.insert(m.PathOf(h));
    if (collector.paths != expected) {
      errors += "descendants:";
      for (const std::string& p : collector.paths) errors += " " + p;
      errors += "\n";
    }
  }
  errors += CheckIds(m, checks.damaged);
  if (checks.query) errors += CheckQuery(m);
  if (checks.fsck) errors += RunFsckHere();
  return errors;
}

std::vector<std::string> Sut::NewEvents() {
  std::vector<std::string> out;
  for (;;) {
    auto page = repo_->ReadChanges(token_ + 1, 1000);
    if (!page.ok()) {
      out.push_back("<" + page.status().ToString() + ">");
      return out;
    }
    for (const ChangeEventInfo& e : page->events) {
      if (e.token <= token_) out.push_back("<token " + std::to_string(e.token) + " again>");
      token_ = e.token;
      out.push_back(e.type + " " + e.object_id);
      if (e.type == "created") logged_ids_.insert(e.object_id);
      if (e.type == "deleted" && logged_ids_.erase(e.object_id) == 0) {
        out.push_back("<deleted " + e.object_id + ": no created event named that id>");
      }
    }
    if (!page->has_more || page->events.empty()) return out;
  }
}

}  // namespace folio::model
