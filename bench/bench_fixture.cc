// Generating, resuming and sampling the benchmark fixture; see bench_fixture.h.
#include "bench_fixture.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "bench_util.h"
#include "folio/store.h"
#include "storage/layout.h"

namespace folio::bench {
namespace {

constexpr const char* kUser = "bench";

struct Progress {
  std::atomic<int64_t> found{0};  // there already (an earlier, interrupted run)
  std::atomic<int64_t> made{0};
  int64_t total = 0;
  int64_t done() const { return found + made; }
};

std::string MarkerPath(const std::string& fixture_dir, const FixtureSpec& spec) {
  return fixture_dir + "/" + spec.name + ".done";
}

// True if a finished fixture of `spec` is there (its marker, and both repositories).
bool MarkerMatches(const std::string& fixture_dir, const FixtureSpec& spec) {
  std::ifstream in(MarkerPath(fixture_dir, spec));
  std::string line;
  if (!std::getline(in, line) || line != spec.Describe()) return false;
  for (const char* repo : {kTreeRepo, kFlatRepo}) {
    const storage::RepoLayout layout(std::string(kDomain) + "/" + repo);
    struct stat st;
    if (::stat((DataDir(fixture_dir, spec) + "/" + layout.RepositoryFile()).c_str(), &st) != 0) return false;
  }
  return true;
}

Status MakeDirIfMissing(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return StorageError("cannot create directory '" + dir + "'", static_cast<std::errc>(errno));
  }
  return OkStatus();
}

// The id of folder `name` directly below the root, created if missing.
Result<std::string> EnsureFolder(Repository& repo, const std::string& name) {
  auto existing = repo.GetObjectByPath(name);
  if (existing.ok()) return existing->id;
  if (existing.status().kind() != ErrorKind::kObjectNotFound) return existing.status();
  NewObject obj;
  obj.name = name;
  FOLIO_ASSIGN_OR_RETURN(ObjectData made, repo.CreateFolder(repo.info().root_folder_id, obj, kUser,
                                                            WriteCheck::Trusted()));
  return made.id;
}

Status CreateDoc(Repository& repo, const std::string& folder_id, int i) {
  NewObject obj;
  obj.name = DocName(i);
  auto made = repo.CreateDocument(folder_id, obj,
                                  ContentSource::FromBytes("benchmark document " + std::to_string(i) + "\n",
                                                           "text/plain"),
                                  VersioningState::kMajor, kUser, WriteCheck::Trusted());
  // Taken: made by an earlier, interrupted run.
  if (!made.ok() && made.status().kind() != ErrorKind::kNameConstraintViolation) return made.status();
  return OkStatus();
}

// Gives folder `folder_id` the documents DocName(0 .. count-1). Documents are created
// in name order, so an interrupted run is resumed from the number already there.
Status FillFolder(Repository& repo, const std::string& folder_id, int count, Progress& progress) {
  FOLIO_ASSIGN_OR_RETURN(ChildrenPage page, repo.GetChildren(folder_id, 0, 0));
  const int have = static_cast<int>(std::min<uint64_t>(page.total, static_cast<uint64_t>(count)));
  progress.found += have;
  for (int i = have; i < count; ++i) {
    FOLIO_RETURN_IF_ERROR(CreateDoc(repo, folder_id, i));
    ++progress.made;
  }
  FOLIO_ASSIGN_OR_RETURN(page, repo.GetChildren(folder_id, 0, 0));
  if (page.total != static_cast<uint64_t>(count)) {
    // Not the prefix we assumed (changed by hand?): try every name once.
    for (int i = 0; i < count; ++i) FOLIO_RETURN_IF_ERROR(CreateDoc(repo, folder_id, i));
    FOLIO_ASSIGN_OR_RETURN(page, repo.GetChildren(folder_id, 0, 0));
    if (page.total != static_cast<uint64_t>(count)) {
      return StorageError("fixture folder '" + folder_id + "' holds " + std::to_string(page.total) +
                          " children, expected " + std::to_string(count) + ": delete the fixture directory");
    }
  }
  return OkStatus();
}

Result<std::shared_ptr<Repository>> EnsureRepository(Store& store, const std::string& id) {
  auto repo = store.GetRepository(kDomain, id);
  if (repo.ok() || repo.status().kind() != ErrorKind::kObjectNotFound) return repo;
  RepositoryInfo info;
  info.repository_id = id;
  info.description = "benchmark fixture";
  FOLIO_RETURN_IF_ERROR(store.CreateRepository(kDomain, info).status());
  return store.GetRepository(kDomain, id);
}

Status FillTree(Store& store, const FixtureSpec& spec, Progress& progress) {
  FOLIO_ASSIGN_OR_RETURN(auto repo, EnsureRepository(store, kTreeRepo));
  for (int f = 0; f < spec.tree_folders; ++f) {
    FOLIO_ASSIGN_OR_RETURN(std::string folder_id, EnsureFolder(*repo, FolderName(f)));
    FOLIO_RETURN_IF_ERROR(FillFolder(*repo, folder_id, spec.docs_per_folder, progress));
  }
  return OkStatus();
}

Status FillFlat(Store& store, const FixtureSpec& spec, Progress& progress) {
  FOLIO_ASSIGN_OR_RETURN(auto repo, EnsureRepository(store, kFlatRepo));
  FOLIO_ASSIGN_OR_RETURN(std::string big_id, EnsureFolder(*repo, kBigFolder));
  FOLIO_RETURN_IF_ERROR(FillFolder(*repo, big_id, spec.big_docs, progress));
  FOLIO_ASSIGN_OR_RETURN(std::string small_id, EnsureFolder(*repo, kSmallFolder));
  return FillFolder(*repo, small_id, spec.small_docs, progress);
}

}  // namespace

std::string FixtureSpec::Describe() const {
  std::ostringstream out;
  out << "format 1; tree " << tree_folders << "x" << docs_per_folder << "; big " << big_docs << "; small "
      << small_docs;
  return out.str();
}

FixtureSpec FullSpec() { return {"full", 1000, 100, 100000, 1000}; }
FixtureSpec QuickSpec() { return {"quick", 100, 100, 10000, 1000}; }

std::string FolderName(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "folder-%04d", i);
  return buf;
}

std::string DocName(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "doc-%06d.txt", i);
  return buf;
}

std::string DataDir(const std::string& fixture_dir, const FixtureSpec& spec) { return fixture_dir + "/" + spec.name; }

Status EnsureFixture(const std::string& fixture_dir, const FixtureSpec& spec) {
  if (MarkerMatches(fixture_dir, spec)) {
    std::cerr << "fixture: reusing " << DataDir(fixture_dir, spec) << " (" << spec.Describe() << ")\n";
    return OkStatus();
  }
  FOLIO_RETURN_IF_ERROR(MakeDirIfMissing(fixture_dir));
  const std::string data_dir = DataDir(fixture_dir, spec);
  std::cerr << "fixture: generating " << data_dir << " (" << spec.Describe() << "); fsync off\n";
  // Durable off: a throw-away fixture (PosixFsOptions). Everything else is the real engine.
  FOLIO_ASSIGN_OR_RETURN(auto store, Store::Open(data_dir, StoreOptions{.durable = false}));
  auto domain = store->CreateDomain(kDomain, "benchmark fixture");
  if (!domain.ok() && domain.status().kind() != ErrorKind::kContentAlreadyExists) return domain.status();

  // The two repositories are independent (separate write locks): one thread each.
  Progress tree, flat;
  tree.total = spec.tree_docs();
  flat.total = spec.big_docs + spec.small_docs;
  Status tree_status, flat_status;
  std::atomic<int> running{2};
  const int64_t start = NowNs();
  std::thread tree_thread([&] {
    tree_status = FillTree(*store, spec, tree);
    --running;
  });
  std::thread flat_thread([&] {
    flat_status = FillFlat(*store, spec, flat);
    --running;
  });
  int64_t last_print = start;
  while (running > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const int64_t now = NowNs();
    if (now - last_print < 5'000'000'000LL) continue;
    last_print = now;
    const double secs = static_cast<double>(now - start) / 1e9;
    const double rate = static_cast<double>(tree.made + flat.made) / secs;
    const int64_t left = tree.total + flat.total - tree.done() - flat.done();
    std::cerr << "fixture: tree " << tree.done() << "/" << tree.total << ", flat " << flat.done() << "/" << flat.total
              << "  (" << static_cast<int64_t>(rate) << " docs/s";
    if (rate > 0 && left > 0) std::cerr << ", ~" << static_cast<int64_t>(left / rate) << " s left";
    std::cerr << ")\n";
  }
  tree_thread.join();
  flat_thread.join();
  FOLIO_RETURN_IF_ERROR(tree_status);
  FOLIO_RETURN_IF_ERROR(flat_status);
  std::ofstream marker(MarkerPath(fixture_dir, spec));
  marker << spec.Describe() << "\n";
  if (!marker.flush()) return StorageError("cannot write '" + MarkerPath(fixture_dir, spec) + "'");
  std::cerr << "fixture: " << tree.made + flat.made << " documents made in " << FormatNs(static_cast<double>(NowNs() - start)) << "\n";
  return OkStatus();
}

Result<std::vector<SampleDoc>> PickSample(Repository& repo, const std::string& data_dir, const FixtureSpec& spec,
                                          int count) {
  std::mt19937 rng(20261121);
  std::uniform_int_distribution<int> doc(0, spec.tree_docs() - 1);
  std::set<int> picked;
  while (static_cast<int>(picked.size()) < std::min(count, spec.tree_docs())) picked.insert(doc(rng));
  // Shuffled, so that consecutive reads do not walk one folder in order.
  std::vector<int> order(picked.begin(), picked.end());
  std::shuffle(order.begin(), order.end(), rng);

  const storage::RepoLayout layout(std::string(kDomain) + "/" + kTreeRepo);
  std::vector<SampleDoc> out;
  for (int n : order) {
    const std::string folder = FolderName(n / spec.docs_per_folder);
    const std::string name = DocName(n % spec.docs_per_folder);
    SampleDoc d;
    d.path = folder + "/" + name;
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, repo.GetObjectByPath(d.path));
    d.series_id = o.series_id;
    d.version_id = o.id;
    if (o.version_label != "1.0") return RuntimeError("fixture document '" + d.path + "' is not at version 1.0");
    d.sidecar_path = data_dir + "/" + layout.VersionProps(folder, name, "1.0");
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace folio::bench
