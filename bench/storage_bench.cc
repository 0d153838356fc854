// folio_bench_storage: the four speed targets of issue 2 §7, each a ratio against a
// baseline timed in the same run (the machine is shared and noisy). Prints a table;
// exits 0 whatever the verdicts (a benchmark reports, it does not fail CI).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_fixture.h"
#include "bench_util.h"
#include "folio/store.h"

namespace folio::bench {
namespace {

constexpr int kSampleSize = 1000;  // documents read by id (target 2)
constexpr int kPageSize = 100;     // children per page (target 3)
constexpr int kPageOffsets = 10;   // skip offsets per folder (target 3)
constexpr double kMiB = 1024.0;

struct Options {
  std::string fixture_dir = "/tmp/folio-bench-fixture";
  bool quick = false;
  bool memory_child = false;
  std::vector<int> only;  // targets to run (1-4); empty: all
};

std::string WithThousands(int64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

std::string Verdict(bool pass) { return pass ? "PASS" : "FAIL"; }

Result<std::unique_ptr<Store>> OpenFresh(const std::string& data_dir) {
  return Store::Open(data_dir, StoreOptions{.create = false});
}

// A repository on a Store of its own (keep the Store alive as long as the repository).
struct OpenRepo {
  std::unique_ptr<Store> store;
  std::shared_ptr<Repository> repo;
};

Result<OpenRepo> OpenRepository(const std::string& data_dir, const std::string& repo_id) {
  OpenRepo r;
  FOLIO_ASSIGN_OR_RETURN(r.store, OpenFresh(data_dir));
  FOLIO_ASSIGN_OR_RETURN(r.repo, r.store->GetRepository(kDomain, repo_id));
  return r;
}

// --- 1. Opening a repository vs walking it -------------------------------------------

Result<std::vector<Row>> BenchOpen(const std::string& data_dir, const FixtureSpec& spec, bool quick) {
  const int reps = quick ? 3 : 5;
  const int opens_per_rep = 20;
  const std::string repo_dir = data_dir + "/" + kDomain + "/" + kTreeRepo;
  std::vector<double> walk_ns, open_ns;
  int64_t entries = 0;
  auto walk = [&]() -> Status {
    const int64_t t0 = NowNs();
    entries = WalkTree(repo_dir);
    walk_ns.push_back(static_cast<double>(NowNs() - t0));
    if (entries <= 0) return StorageError("cannot walk '" + repo_dir + "'");
    return OkStatus();
  };
  auto open = [&]() -> Status {
    for (int i = 0; i < opens_per_rep; ++i) {
      const int64_t t0 = NowNs();
      // A fresh Store each time: nothing cached in the process.
      FOLIO_ASSIGN_OR_RETURN(auto store, OpenFresh(data_dir));
      FOLIO_ASSIGN_OR_RETURN(auto repo, store->GetRepository(kDomain, kTreeRepo));
      open_ns.push_back(static_cast<double>(NowNs() - t0));
      if (repo->info().root_folder_id.empty()) return RuntimeError("opened repository has no root folder id");
    }
    return OkStatus();
  };
  for (int rep = 0; rep < reps; ++rep) {
    if (rep % 2 == 0) {
      FOLIO_RETURN_IF_ERROR(walk());
      FOLIO_RETURN_IF_ERROR(open());
    } else {
      FOLIO_RETURN_IF_ERROR(open());
      FOLIO_RETURN_IF_ERROR(walk());
    }
  }
  const double open_med = Median(open_ns), walk_med = Median(walk_ns);
  const double ratio = open_med / walk_med;
  Row row;
  row.what = "1. open repository (" + WithThousands(spec.tree_docs()) + " docs, " + WithThousands(spec.tree_folders) +
             " folders) vs walk (" + WithThousands(entries) + " entries)";
  row.folio = FormatNs(open_med);
  row.baseline = FormatNs(walk_med);
  row.ratio = FormatFixed(ratio * 100, 3) + "%";
  row.target = "< 5%";
  row.verdict = Verdict(ratio < 0.05);
  std::cerr << "open: median of " << open_ns.size() << " opens and " << walk_ns.size() << " walks\n";
  return std::vector<Row>{row};
}

// --- 2. Reading an object by id vs reading its sidecar --------------------------------

// The baseline: open, read, parse (nlohmann::json), close of one version file.
Result<size_t> ReadSidecar(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return StorageError("cannot open '" + path + "'");
  char buf[1 << 16];
  std::string bytes;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      ::close(fd);
      return StorageError("cannot read '" + path + "'");
    }
    if (n == 0) break;
    bytes.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  try {
    return nlohmann::json::parse(bytes).size();
  } catch (const nlohmann::json::exception& e) {
    return StorageError("cannot parse '" + path + "': " + e.what());
  }
}

Result<std::vector<Row>> BenchGetObject(const std::string& data_dir, const FixtureSpec& spec, bool quick) {
  const int passes = quick ? 5 : 15;
  std::vector<SampleDoc> sample;
  {
    // Ids are resolved on a Store of their own, so the measured one starts empty.
    FOLIO_ASSIGN_OR_RETURN(OpenRepo setup, OpenRepository(data_dir, kTreeRepo));
    FOLIO_ASSIGN_OR_RETURN(sample, PickSample(*setup.repo, data_dir, spec, kSampleSize));
  }
  FOLIO_ASSIGN_OR_RETURN(OpenRepo r, OpenRepository(data_dir, kTreeRepo));
  const double n = static_cast<double>(sample.size());
  size_t sink = 0;

  auto time_baseline = [&]() -> Result<double> {
    const int64_t t0 = NowNs();
    for (const SampleDoc& d : sample) {
      FOLIO_ASSIGN_OR_RETURN(size_t fields, ReadSidecar(d.sidecar_path));
      sink += fields;
    }
    return static_cast<double>(NowNs() - t0) / n;
  };
  auto time_folio = [&](bool by_version) -> Result<double> {
    const int64_t t0 = NowNs();
    for (const SampleDoc& d : sample) {
      FOLIO_ASSIGN_OR_RETURN(ObjectData o, r.repo->GetObject(by_version ? d.version_id : d.series_id));
      sink += o.properties.size();
    }
    return static_cast<double>(NowNs() - t0) / n;
  };

  // Per pass: the three loops in a rotating order; ratios are taken within a pass.
  std::vector<double> base_ns, version_ns, series_ns, version_ratio, series_ratio;
  double first_version_ns = 0;
  for (int pass = 0; pass < passes; ++pass) {
    double b = 0, v = 0, s = 0;
    for (int k = 0; k < 3; ++k) {
      switch ((pass + k) % 3) {
        case 0: { FOLIO_ASSIGN_OR_RETURN(b, time_baseline()); break; }
        case 1: { FOLIO_ASSIGN_OR_RETURN(v, time_folio(true)); break; }
        case 2: { FOLIO_ASSIGN_OR_RETURN(s, time_folio(false)); break; }
      }
    }
    if (pass == 0) first_version_ns = v;
    base_ns.push_back(b);
    version_ns.push_back(v);
    series_ns.push_back(s);
    version_ratio.push_back(b / v);  // Folio rate / baseline rate
    series_ratio.push_back(b / s);
  }
  if (sink == 0) return RuntimeError("nothing was read");
  std::cerr << "get-object: " << sample.size() << " documents x " << passes << " passes\n";

  auto rate = [](double ns) { return FormatFixed(1e9 / ns / 1000, 1) + "k/s (" + FormatNs(ns) + ")"; };
  std::vector<Row> rows;
  for (bool by_version : {true, false}) {
    // The figures of the pass whose ratio is the median.
    const std::vector<double>& ratios = by_version ? version_ratio : series_ratio;
    const size_t median_pass = MedianIndex(ratios);
    const double ratio = ratios[median_pass];
    Row row;
    row.what = std::string("2. GetObject by ") + (by_version ? "version id" : "series id") + " vs read+parse 1.0.json (" +
               WithThousands(static_cast<int64_t>(sample.size())) + " random docs)";
    row.folio = rate((by_version ? version_ns : series_ns)[median_pass]);
    row.baseline = rate(base_ns[median_pass]);
    row.ratio = FormatFixed(ratio, 2);
    row.target = ">= 0.5";
    row.verdict = Verdict(ratio >= 0.5);
    rows.push_back(row);
  }
  Row first;
  first.what = "   GetObject by version id, first pass on a fresh Store (nothing cached in-process)";
  first.folio = rate(first_version_ns);
  first.baseline = rate(base_ns[0]);
  first.ratio = FormatFixed(base_ns[0] / first_version_ns, 2);
  first.target = "-";
  first.verdict = "info";
  rows.push_back(first);
  return rows;
}

// --- 3. A page of children: 100,000-document folder vs 1,000-document folder ---------

std::vector<uint64_t> SpreadOffsets(int children) {
  std::vector<uint64_t> out;
  const uint64_t last = static_cast<uint64_t>(std::max(children - kPageSize, 0));
  for (int i = 0; i < kPageOffsets; ++i) out.push_back(last * static_cast<uint64_t>(i) / (kPageOffsets - 1));
  return out;
}

Result<double> TimePage(Repository& repo, const std::string& folder_id, uint64_t skip) {
  const int64_t t0 = NowNs();
  FOLIO_ASSIGN_OR_RETURN(ChildrenPage page, repo.GetChildren(folder_id, skip, kPageSize));
  const double ns = static_cast<double>(NowNs() - t0);
  if (page.objects.size() != static_cast<size_t>(kPageSize)) {
    return RuntimeError("page at " + std::to_string(skip) + " of '" + folder_id + "' holds " +
                        std::to_string(page.objects.size()) + " objects");
  }
  return ns;
}

Result<std::vector<Row>> BenchChildren(const std::string& data_dir, const FixtureSpec& spec, bool quick) {
  const int passes = quick ? 3 : 10;
  FOLIO_ASSIGN_OR_RETURN(OpenRepo r, OpenRepository(data_dir, kFlatRepo));
  FOLIO_ASSIGN_OR_RETURN(ObjectData big, r.repo->GetObjectByPath(kBigFolder));
  FOLIO_ASSIGN_OR_RETURN(ObjectData small, r.repo->GetObjectByPath(kSmallFolder));
  // First pages on the fresh Store: each lists and sorts its whole directory once.
  FOLIO_ASSIGN_OR_RETURN(double first_big, TimePage(*r.repo, big.id, 0));
  FOLIO_ASSIGN_OR_RETURN(double first_small, TimePage(*r.repo, small.id, 0));

  const std::vector<uint64_t> big_at = SpreadOffsets(spec.big_docs), small_at = SpreadOffsets(spec.small_docs);
  // Pages are timed in adjacent pairs (order alternating); the ratio is the median of
  // the per-pair ratios, so a burst of load from other processes hits both sides.
  std::vector<double> big_ns, small_ns, pair_ratio;
  for (int pass = 0; pass < passes; ++pass) {
    for (int i = 0; i < kPageOffsets; ++i) {
      double b = 0, s = 0;
      if ((pass + i) % 2 == 0) {
        FOLIO_ASSIGN_OR_RETURN(b, TimePage(*r.repo, big.id, big_at[i]));
        FOLIO_ASSIGN_OR_RETURN(s, TimePage(*r.repo, small.id, small_at[i]));
      } else {
        FOLIO_ASSIGN_OR_RETURN(s, TimePage(*r.repo, small.id, small_at[i]));
        FOLIO_ASSIGN_OR_RETURN(b, TimePage(*r.repo, big.id, big_at[i]));
      }
      big_ns.push_back(b);
      small_ns.push_back(s);
      pair_ratio.push_back(b / s);
    }
  }
  std::cerr << "children: " << kPageOffsets << " offsets x " << passes << " passes per folder\n";
  const size_t median_pair = MedianIndex(pair_ratio);
  const double ratio = pair_ratio[median_pair];
  Row row;
  row.what = "3. GetChildren page of 100: folder of " + WithThousands(spec.big_docs) + " vs " +
             WithThousands(spec.small_docs) + " docs";
  row.folio = FormatNs(big_ns[median_pair]);
  row.baseline = FormatNs(small_ns[median_pair]);
  row.ratio = FormatFixed(ratio, 2) + "x";
  row.target = "<= 3x";
  row.verdict = Verdict(ratio <= 3.0);
  Row first;
  first.what = "   first page on a fresh Store (lists and sorts the folder)";
  first.folio = FormatNs(first_big);
  first.baseline = FormatNs(first_small);
  first.ratio = FormatFixed(first_big / first_small, 2) + "x";
  first.target = "-";
  first.verdict = "info";
  return std::vector<Row>{row, first};
}

// --- 4. Resident memory, measured in a fresh child process -----------------------------

// The child: opens the tree repository, repeats the lookups of targets 2 and 3 on it,
// then does the same with the flat repository, and prints "key kB" lines.
Status RunMemoryChild(const std::string& data_dir, const FixtureSpec& spec) {
  std::cout << "rss_start " << ProcStatusKb("VmRSS") << "\n";
  FOLIO_ASSIGN_OR_RETURN(auto store, OpenFresh(data_dir));
  FOLIO_ASSIGN_OR_RETURN(auto tree, store->GetRepository(kDomain, kTreeRepo));
  FOLIO_ASSIGN_OR_RETURN(std::vector<SampleDoc> sample, PickSample(*tree, data_dir, spec, kSampleSize));
  for (int pass = 0; pass < 3; ++pass) {
    for (const SampleDoc& d : sample) {
      FOLIO_RETURN_IF_ERROR(tree->GetObject(d.version_id).status());
      FOLIO_RETURN_IF_ERROR(tree->GetObject(d.series_id).status());
    }
  }
  for (int f = 0; f < spec.tree_folders; f += std::max(1, spec.tree_folders / 50)) {
    FOLIO_ASSIGN_OR_RETURN(ObjectData folder, tree->GetObjectByPath(FolderName(f)));
    FOLIO_RETURN_IF_ERROR(tree->GetChildren(folder.id, 0, kPageSize).status());
  }
  std::cout << "rss_tree " << ProcStatusKb("VmRSS") << "\n";
  FOLIO_ASSIGN_OR_RETURN(auto flat, store->GetRepository(kDomain, kFlatRepo));
  for (const char* name : {kBigFolder, kSmallFolder}) {
    FOLIO_ASSIGN_OR_RETURN(ObjectData folder, flat->GetObjectByPath(name));
    for (uint64_t skip : SpreadOffsets(name == kBigFolder ? spec.big_docs : spec.small_docs)) {
      FOLIO_RETURN_IF_ERROR(flat->GetChildren(folder.id, skip, kPageSize).status());
    }
  }
  std::cout << "rss_both " << ProcStatusKb("VmRSS") << "\n";
  std::cout << "hwm " << ProcStatusKb("VmHWM") << "\n";
  return OkStatus();
}

// Runs this program again with --memory-child and collects its "key kB" lines.
Result<std::map<std::string, int64_t>> SpawnMemoryChild(const Options& opts) {
  int fds[2];
  if (::pipe(fds) != 0) return StorageError("cannot create a pipe");
  std::vector<std::string> args = {"/proc/self/exe", "--memory-child", "--fixture", opts.fixture_dir};
  if (opts.quick) args.push_back("--quick");
  const pid_t pid = ::fork();
  if (pid < 0) return StorageError("cannot fork");
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return RuntimeError("memory child failed (status " + std::to_string(wstatus) + "); output: " + out);
  }
  std::map<std::string, int64_t> values;
  std::istringstream in(out);
  std::string key;
  int64_t kb;
  while (in >> key >> kb) values[key] = kb;
  for (const char* k : {"rss_start", "rss_tree", "rss_both", "hwm"}) {
    if (!values.count(k)) return RuntimeError(std::string("memory child did not report ") + k + ": " + out);
  }
  return values;
}

Result<std::vector<Row>> BenchMemory(const Options& opts, const FixtureSpec& spec) {
  FOLIO_ASSIGN_OR_RETURN(auto kb, SpawnMemoryChild(opts));
  const double limit_kb = 50 * kMiB;
  Row row;
  row.what = "4. VmRSS, " + WithThousands(spec.tree_docs()) + "-doc repository open after the lookups of 2 and 3";
  row.folio = FormatKb(kb["rss_tree"]);
  row.baseline = FormatKb(kb["rss_start"]) + " (at start)";
  row.ratio = FormatFixed(kb["rss_tree"] / limit_kb * 100, 0) + "% of limit";
  row.target = "< 50 MB";
  row.verdict = Verdict(kb["rss_tree"] < limit_kb);
  Row both;
  both.what = "   VmRSS, also the flat repository paged (" + WithThousands(spec.big_docs) + "-doc folder listed)";
  both.folio = FormatKb(kb["rss_both"]);
  both.baseline = FormatKb(kb["rss_start"]) + " (at start)";
  both.ratio = FormatFixed(kb["rss_both"] / limit_kb * 100, 0) + "% of limit";
  both.target = "-";
  both.verdict = "info";
  Row peak = both;
  peak.what = "   VmHWM (peak resident) of that child";
  peak.folio = FormatKb(kb["hwm"]);
  peak.ratio = FormatFixed(kb["hwm"] / limit_kb * 100, 0) + "% of limit";
  return std::vector<Row>{row, both, peak};
}

std::string Today() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return buf;
}

int Run(const Options& opts) {
  const FixtureSpec spec = opts.quick ? QuickSpec() : FullSpec();
  const std::string data_dir = DataDir(opts.fixture_dir, spec);
  if (opts.memory_child) {
    Status s = RunMemoryChild(data_dir, spec);
    if (!s.ok()) std::cerr << "memory child: " << s.ToString() << "\n";
    return s.ok() ? 0 : 1;
  }
  std::cerr << "folio_bench_storage " << (opts.quick ? "--quick " : "") << "started " << Today() << "\n";
  const int64_t start = NowNs();
  if (Status s = EnsureFixture(opts.fixture_dir, spec); !s.ok()) {
    std::cerr << "fixture: " << s.ToString() << "\n";
    return 1;
  }
  // Both sides read a warm page cache: walk every repository once, untimed.
  for (const char* repo : {kTreeRepo, kFlatRepo}) WalkTree(data_dir + "/" + kDomain + "/" + repo);

  auto wanted = [&](int target) {
    return opts.only.empty() || std::find(opts.only.begin(), opts.only.end(), target) != opts.only.end();
  };
  std::vector<Row> rows;
  using Bench = Result<std::vector<Row>> (*)(const std::string&, const FixtureSpec&, bool);
  const Bench benches[] = {BenchOpen, BenchGetObject, BenchChildren};
  for (int target = 1; target <= 3; ++target) {
    if (!wanted(target)) continue;
    auto r = benches[target - 1](data_dir, spec, opts.quick);
    if (!r.ok()) {
      std::cerr << "benchmark failed: " << r.status().ToString() << "\n";
      return 1;
    }
    rows.insert(rows.end(), r->begin(), r->end());
  }
  if (wanted(4)) {
    auto mem = BenchMemory(opts, spec);
    if (!mem.ok()) {
      std::cerr << "benchmark failed: " << mem.status().ToString() << "\n";
      return 1;
    }
    rows.insert(rows.end(), mem->begin(), mem->end());
  }

  std::cout << "\nfolio_bench_storage" << (opts.quick ? " --quick" : "") << ", " << Today() << ", fixture "
            << data_dir << " (" << spec.Describe() << ")\n\n"
            << FormatTable(rows) << "\nratios: 1 = median Folio time / median walk time; 2 = Folio rate / baseline rate in the pass "
            << "with the median ratio (passes interleave both); 3 = big / small page time in the pair with the "
            << "median ratio (pages timed in adjacent pairs). Total "
            << FormatNs(static_cast<double>(NowNs() - start)) << ".\n";
  return 0;
}

}  // namespace
}  // namespace folio::bench

int main(int argc, char** argv) {
  folio::bench::Options opts;
  CLI::App app{"Folio storage benchmarks (issue 2 §7): figures and ratios against baselines timed in the same run"};
  app.add_option("--fixture", opts.fixture_dir, "directory caching the generated fixture")->capture_default_str();
  app.add_flag("--quick", opts.quick, "10x smaller fixture and fewer passes: a smoke run");
  app.add_option("--only", opts.only, "run only these targets (1-4), e.g. --only 2 3")
      ->check(CLI::Range(1, 4));
  app.add_flag("--memory-child", opts.memory_child, "internal: the fresh process that measures resident memory")
      ->group("");
  CLI11_PARSE(app, argc, argv);
  return folio::bench::Run(opts);
}
