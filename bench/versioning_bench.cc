// folio_bench_versioning: the speed targets of issue 4 §6, each a ratio against a
// baseline measured in the same run.
//  1. (The checkOut + checkIn cycle moved to folio_bench_engine.)
//  2. getAllVersions of a series of 1,000 / 5,000 / 10,000 versions: time per version
//     (linear means flat) and against reading those version sidecars directly.
//  3. The same over HTTP (GET <doc>/versions?succinct=true on loopback against
//     `folio serve` of that data directory): the engine call plus rendering the JSON of
//     every version and the transfer, against the same baseline.
//  4. (--versus-get, alone) getAllVersions over HTTP of 500 and 2,000 versions against
//     getObject of each version one by one (goal: at most 0.05), and its linearity
//     (issue 30).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_server.h"
#include "bench_util.h"
#include "folio/store.h"

namespace fs = std::filesystem;
using namespace folio;
using folio::bench::FormatFixed;
using folio::bench::FormatNs;
using folio::bench::NowNs;
using folio::bench::Row;

namespace {

// Reads and parses every version sidecar of the series directory directly.
double SidecarsNs(const std::string& series_dir, int versions) {
  const int64_t start = NowNs();
  size_t keys = 0;
  for (int i = 1; i <= versions; ++i) {
    const std::string path = series_dir + "/1." + std::to_string(i) + ".json";
    int fd = ::open(path.c_str(), O_RDONLY);
    std::string buf(8192, '\0');
    ssize_t n = ::read(fd, buf.data(), buf.size());
    ::close(fd);
    buf.resize(n > 0 ? static_cast<size_t>(n) : 0);
    keys += nlohmann::json::parse(buf).size();
  }
  if (keys == 0) std::cerr << "no sidecars read\n";
  return static_cast<double>(NowNs() - start);
}

// Domain "demo", repository "main" in `dir` (no fsync) with one document, long.txt,
// at version 1.0.
struct LongSeries {
  std::unique_ptr<Store> store;
  std::shared_ptr<Repository> repo;
  std::string series;
};
LongSeries MakeLongSeries(const std::string& dir) {
  LongSeries out;
  auto store = Store::Open(dir, StoreOptions{.durable = false});
  out.store = std::move(*store);
  (void)out.store->CreateDomain("demo", "");
  RepositoryInfo info;
  info.repository_id = "main";
  (void)out.store->CreateRepository("demo", info);
  out.repo = *out.store->GetRepository("demo", "main");
  NewObject o;
  o.name = "long.txt";
  auto doc = out.repo->CreateDocument(out.repo->info().root_folder_id, o, ContentSource::FromBytes("v"),
                                      VersioningState::kMajor, "bench", WriteCheck::Trusted());
  out.series = doc->series_id;
  return out;
}

// Minor check-ins of `series` until it has `size` versions (`have` counts them).
void GrowTo(Repository& repo, const std::string& series, int& have, int size) {
  while (have < size) {
    auto pwc = repo.CheckOut(series, "bench", WriteCheck::Trusted());
    CheckInRequest req;
    req.major = false;
    (void)repo.CheckIn(pwc->id, req, "bench", WriteCheck::Trusted());
    ++have;
  }
}

std::vector<Row> VersionsRows(const std::string& folio, const std::vector<int>& sizes) {
  std::vector<Row> rows, http_rows;
  const std::string dir = folio::bench::MakeTempDir("versions");
  LongSeries long_series = MakeLongSeries(dir);
  const std::shared_ptr<Repository>& repo = long_series.repo;
  const std::string& series = long_series.series;
  const std::string series_dir = dir + "/demo/main/.folio/docs/long.txt";
  // Row 3's server reads the same data directory (it sees each check-in below as
  // any reader would); it stays idle while the series grows.
  folio::bench::Server server = folio::bench::StartServer(folio, dir);
  std::unique_ptr<httplib::Client> cli;
  if (server.port != 0) {
    cli = std::make_unique<httplib::Client>("127.0.0.1", server.port);
    cli->set_tcp_nodelay(true);
    cli->set_read_timeout(120, 0);
  }
  int have = 1;
  std::vector<double> per_version_ns;
  for (int size : sizes) {
    std::cerr << "building a series of " << size << " versions...\n";
    GrowTo(*repo, series, have, size);
    ::sleep(1);  // past the caches' "recently changed" window, as a reader would be
    std::vector<double> folio_ns, base_ns, ratios;
    for (int pass = 0; pass < 5; ++pass) {
      int64_t start = NowNs();
      auto all = repo->GetAllVersions(series);
      const double f = static_cast<double>(NowNs() - start);
      if (!all.ok() || static_cast<int>(all->size()) != size) std::cerr << "getAllVersions failed\n";
      const double b = SidecarsNs(series_dir, size - 1);  // 1.1 .. 1.(size-1); 1.0 is the same shape
      folio_ns.push_back(f);
      base_ns.push_back(b);
      ratios.push_back(f / b);
    }
    const size_t m = folio::bench::MedianIndex(ratios);
    const double per_version = folio_ns[m] / size;
    per_version_ns.push_back(per_version);
    rows.push_back(Row{"2. getAllVersions, " + std::to_string(size) + " versions vs reading their sidecars",
                       FormatNs(folio_ns[m]) + " (" + FormatNs(per_version) + "/version)",
                       FormatNs(base_ns[m]), FormatFixed(ratios[m], 2) + "x", "<= 2x",
                       ratios[m] <= 2.0 ? "PASS" : "FAIL"});

    Row http{"3. getAllVersions over HTTP, " + std::to_string(size) + " versions vs reading their sidecars",
             "", "", "", "<= 2x", "FAIL"};
    if (cli == nullptr) {
      http.folio = "server did not start";
    } else {
      std::vector<double> http_ns, http_base_ns, http_ratios;
      size_t bytes = 0;
      bool failed = false;
      (void)cli->Get("/demo/main/long.txt/versions?succinct=true");  // warm up the server's caches
      for (int pass = 0; pass < 5 && !failed; ++pass) {
        int64_t start = NowNs();
        auto res = cli->Get("/demo/main/long.txt/versions?succinct=true");
        const double f = static_cast<double>(NowNs() - start);
        if (!res || res->status != 200) {
          failed = true;
          break;
        }
        bytes = res->body.size();
        const double b = SidecarsNs(series_dir, size - 1);
        http_ns.push_back(f);
        http_base_ns.push_back(b);
        http_ratios.push_back(f / b);
      }
      if (failed) {
        http.folio = "the request failed";
      } else {
        const size_t hm = folio::bench::MedianIndex(http_ratios);
        http.folio = FormatNs(http_ns[hm]) + " (" + FormatNs(http_ns[hm] / size) + "/version, " +
                     FormatFixed(static_cast<double>(bytes) / 1e6, 1) + " MB)";
        http.baseline = FormatNs(http_base_ns[hm]);
        http.ratio = FormatFixed(http_ratios[hm], 2) + "x";
        http.verdict = http_ratios[hm] <= 2.0 ? "PASS" : "FAIL";
      }
    }
    http_rows.push_back(http);
  }
  if (server.pid > 0) {
    folio::bench::StopServer(server);
  }
  const double growth = per_version_ns.back() / per_version_ns.front();
  rows.push_back(Row{"   linearity: time per version, largest series / smallest", FormatNs(per_version_ns.back()),
                     FormatNs(per_version_ns.front()), FormatFixed(growth, 2) + "x", "~1 (linear)",
                     growth <= 1.5 ? "PASS" : "FAIL"});
  rows.insert(rows.end(), http_rows.begin(), http_rows.end());
  fs::remove_all(dir);
  return rows;
}

// Row 4 (issue 30): getAllVersions over HTTP of the series at each size against
// getObject of each of its versions by id, one request after the other on the same
// keep-alive connection (what a client without getAllVersions would do); the ratio of
// the medians of 7 alternating passes, and the growth from the smallest size to the
// largest (linear: the largest / the smallest at most their size ratio).
std::vector<Row> VersusGetRows(const std::string& folio, const std::vector<int>& sizes) {
  std::vector<Row> rows;
  const std::string dir = folio::bench::MakeTempDir("versions-get");
  LongSeries long_series = MakeLongSeries(dir);
  const std::shared_ptr<Repository>& repo = long_series.repo;
  const std::string& series = long_series.series;
  folio::bench::Server server = folio::bench::StartServer(folio, dir);
  if (server.port == 0) {
    rows.push_back(Row{"4. getAllVersions vs getObject one by one", "server did not start", "", "", "", "FAIL"});
    return rows;
  }
  httplib::Client cli("127.0.0.1", server.port);
  cli.set_tcp_nodelay(true);
  cli.set_read_timeout(120, 0);
  int have = 1;
  std::vector<double> all_ns;
  for (int size : sizes) {
    GrowTo(*repo, series, have, size);
    ::sleep(1);  // past the caches' "recently changed" window, as a reader would be
    std::vector<std::string> ids;
    auto versions = repo->GetAllVersions(series);
    if (!versions.ok()) break;
    for (const ObjectData& v : *versions) ids.push_back(v.id);
    std::vector<double> all, each, ratios;
    bool failed = false;
    const auto get_all = [&]() -> double {
      const int64_t start = NowNs();
      auto res = cli.Get("/demo/main/long.txt/versions?succinct=true");
      if (!res || res->status != 200) failed = true;
      return static_cast<double>(NowNs() - start);
    };
    const auto get_each = [&]() -> double {
      const int64_t start = NowNs();
      for (const std::string& id : ids) {
        auto res = cli.Get("/demo/main?cmisselector=object&succinct=true&objectId=" + id);
        if (!res || res->status != 200) failed = true;
      }
      return static_cast<double>(NowNs() - start);
    };
    (void)get_all();  // warm up the server's caches
    (void)get_each();
    for (int pass = 0; pass < 7 && !failed; ++pass) {
      const bool all_first = pass % 2 == 0;
      const double a1 = all_first ? get_all() : 0, e = get_each(), a = all_first ? a1 : get_all();
      all.push_back(a);
      each.push_back(e);
      ratios.push_back(a / e);
    }
    if (failed) {
      rows.push_back(Row{"4. getAllVersions vs getObject one by one", "a request failed", "", "", "", "FAIL"});
      break;
    }
    const size_t m = folio::bench::MedianIndex(ratios);
    all_ns.push_back(all[m]);
    rows.push_back(Row{"4. getAllVersions over HTTP, " + std::to_string(size) + " versions vs getObject of each",
                       FormatNs(all[m]) + " (" + FormatNs(all[m] / size) + "/version)", FormatNs(each[m]),
                       FormatFixed(ratios[m], 3), "<= 0.05", ratios[m] <= 0.05 ? "PASS" : "FAIL"});
  }
  folio::bench::StopServer(server);
  if (all_ns.size() == sizes.size() && sizes.size() > 1) {
    const double growth = all_ns.back() / all_ns.front();
    const double limit = 1.25 * sizes.back() / sizes.front();
    rows.push_back(Row{"   linearity: getAllVersions " + std::to_string(sizes.back()) + " / " +
                           std::to_string(sizes.front()),
                       FormatNs(all_ns.back()), FormatNs(all_ns.front()), FormatFixed(growth, 2) + "x",
                       "<= " + FormatFixed(limit, 2) + "x", growth <= limit ? "PASS" : "FAIL"});
  }
  fs::remove_all(dir);
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  const folio::bench::ServerBenchArgs args = folio::bench::ParseServerBenchArgs(argc, argv);
  const bool quick = args.quick;
  const std::string& folio = args.folio;
  std::vector<Row> rows;
  bool versus_get = false;
  for (int i = 1; i < argc; ++i) versus_get = versus_get || std::string(argv[i]) == "--versus-get";
  if (versus_get) {
    std::cout << folio::bench::FormatTable(VersusGetRows(folio, quick ? std::vector<int>{100, 400}
                                                                      : std::vector<int>{500, 2000}));
    return 0;
  }
  for (Row& r : VersionsRows(folio, quick ? std::vector<int>{200, 1000} : std::vector<int>{1000, 5000, 10000})) {
    rows.push_back(r);
  }
  std::cout << folio::bench::FormatTable(rows);
  return 0;
}
