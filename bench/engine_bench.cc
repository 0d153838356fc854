// folio_bench_engine: the write-path targets of the engine rework, each a ratio against
// a baseline measured in the same run (the machine is shared: absolute times drift).
//  1. checkOut + checkIn over HTTP (1 KiB content, one keep-alive connection) against
//     the physical floor: 3 x (write 1 KiB to a temp file, fsync, rename, fsync its
//     directory) per cycle. Target: at least 0.60.
//  2. The same with 8 connections, each cycling its own document: total cycles/s against
//     row 1's Folio figure. Target: at least 2x (the connections share log syncs).
//  3. 10,000 files copied by hand into 10 folders, listed for the first time over HTTP
//     (every page of every folder, which adopts them) then `sync`, against `cp -a` of
//     the same tree then `sync`. Target: at most 1.5x. Also: how much the data directory
//     grew (metadata only: the content is linked, not copied).
// Starts the real `folio serve` (build/folio, or --folio PATH) on temporary data
// directories. --cycles runs rows 1 and 2 only, --adoption row 3 only; --quick runs fewer
// cycles and files.
#include <sys/stat.h>
#include <unistd.h>

#include <httplib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
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
using folio::bench::Server;

namespace {

constexpr int kAtomicWritesPerFloorCycle = 3;

// The physical floor of `cycles` cycles: each 3 atomic replacements of `bytes`
// (temp + fsync + rename + fsync of the directory). Nanoseconds per cycle.
double FloorNsPerCycle(const std::string& dir, const std::string& bytes, int cycles) {
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  const int64_t start = NowNs();
  for (int i = 0; i < cycles * kAtomicWritesPerFloorCycle; ++i) {
    const std::string tmp = dir + "/.tmp", target = dir + "/f" + std::to_string(i % kAtomicWritesPerFloorCycle);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (::write(fd, bytes.data(), bytes.size()) < 0) std::perror("write");
    ::fsync(fd);
    ::close(fd);
    ::rename(tmp.c_str(), target.c_str());
    ::fsync(dfd);
  }
  const double ns = static_cast<double>(NowNs() - start) / cycles;
  ::close(dfd);
  return ns;
}

// A data directory with domain demo, repository main and documents cycle-0.txt ...
std::string MakeCycleData(int docs, const std::string& bytes) {
  const std::string dir = folio::bench::MakeTempDir("engine");
  auto store = Store::Open(dir);
  (void)(*store)->CreateDomain("demo", "");
  RepositoryInfo info;
  info.repository_id = "main";
  (void)(*store)->CreateRepository("demo", info);
  auto repo = (*store)->GetRepository("demo", "main");
  for (int i = 0; i < docs; ++i) {
    NewObject o;
    o.name = "cycle-" + std::to_string(i) + ".txt";
    (void)(*repo)->CreateDocument((*repo)->info().root_folder_id, o, ContentSource::FromBytes(bytes),
                                  VersioningState::kMajor, "bench", WriteCheck::Trusted());
  }
  return dir;
}

bool Cycle(httplib::Client& cli, int doc) {
  const std::string path = "/demo/main/cycle-" + std::to_string(doc) + ".txt";
  auto a = cli.Post(path, "operation=checkOut", "application/x-www-form-urlencoded");
  auto b = cli.Post(path, "operation=checkIn&major=false", "application/x-www-form-urlencoded");
  return a && b && a->status == 201 && b->status == 201;
}

// Cycles/s with `connections` clients, each cycling its own document `cycles` times.
// 0 if a request failed.
double CyclesPerSecond(int port, int connections, int cycles) {
  std::atomic<bool> failed{false};
  std::vector<std::thread> threads;
  const int64_t start = NowNs();
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client cli("127.0.0.1", port);
      cli.set_tcp_nodelay(true);  // as curl and browsers: no Nagle wait on a POST's body
      cli.set_keep_alive(true);
      for (int i = 0; i < cycles && !failed; ++i) {
        if (!Cycle(cli, c)) failed = true;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  if (failed) return 0;
  return static_cast<double>(connections) * cycles * 1e9 / static_cast<double>(NowNs() - start);
}

// Rows 1 and 2.
std::vector<Row> CycleRows(const std::string& folio, int cycles) {
  const std::string bytes(1024, 'x');
  const std::string data = MakeCycleData(8, bytes), floor_dir = folio::bench::MakeTempDir("floor");
  Server server = folio::bench::StartServer(folio, data);
  Row one{"1. checkOut+checkIn over HTTP (1 KiB, 1 connection) vs floor 3x(write+fsync+rename+fsync dir)",
          "", "", "", ">= 0.60", "FAIL"};
  Row eight{"2. the same with 8 connections (8 documents) vs 1 connection", "", "", "", ">= 2x", "FAIL"};
  if (server.port == 0) {
    one.folio = eight.folio = "server did not start";
    return {one, eight};
  }
  {
    httplib::Client warm("127.0.0.1", server.port);
    warm.set_tcp_nodelay(true);  // as curl and browsers: no Nagle wait on a POST's body
    for (int d = 0; d < 8; ++d) (void)Cycle(warm, d);
  }
  std::vector<double> ratios1, ratios8, folio1, floor1, folio8;
  for (int pass = 0; pass < 3; ++pass) {
    const double f1 = CyclesPerSecond(server.port, 1, cycles);
    const double fl = 1e9 / FloorNsPerCycle(floor_dir, bytes, cycles);
    const double f8 = CyclesPerSecond(server.port, 8, cycles);
    if (f1 == 0 || f8 == 0) {
      one.folio = eight.folio = "a request failed";
      folio::bench::StopServer(server);
      return {one, eight};
    }
    folio1.push_back(f1);
    floor1.push_back(fl);
    folio8.push_back(f8);
    ratios1.push_back(f1 / fl);
    ratios8.push_back(f8 / f1);
  }
  folio::bench::StopServer(server);
  size_t m = folio::bench::MedianIndex(ratios1);
  one.folio = FormatFixed(folio1[m], 0) + " cycles/s (" + FormatNs(1e9 / folio1[m]) + ")";
  one.baseline = FormatFixed(floor1[m], 0) + " cycles/s (" + FormatNs(1e9 / floor1[m]) + ")";
  one.ratio = FormatFixed(ratios1[m], 2);
  one.verdict = ratios1[m] >= 0.60 ? "PASS" : "FAIL";
  m = folio::bench::MedianIndex(ratios8);
  eight.folio = FormatFixed(folio8[m], 0) + " cycles/s";
  eight.baseline = FormatFixed(folio1[m], 0) + " cycles/s";
  eight.ratio = FormatFixed(ratios8[m], 2) + "x";
  eight.verdict = ratios8[m] >= 2.0 ? "PASS" : "FAIL";
  fs::remove_all(data);
  fs::remove_all(floor_dir);
  return {one, eight};
}

// 512-byte blocks allocated below `dir` (what `du` counts), each inode once.
uint64_t DiskBlocks(const std::string& dir) {
  uint64_t blocks = 0;
  std::vector<std::pair<dev_t, ino_t>> seen;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    struct stat st;
    if (::lstat(e.path().c_str(), &st) != 0) continue;
    if (st.st_nlink > 1 && !S_ISDIR(st.st_mode)) {
      std::pair<dev_t, ino_t> key{st.st_dev, st.st_ino};
      bool dup = false;
      for (const auto& s : seen) dup |= s == key;
      if (dup) continue;
      seen.push_back(key);
    }
    blocks += static_cast<uint64_t>(st.st_blocks);
  }
  return blocks;
}

int Run(const std::string& command) { return std::system(command.c_str()); }

// Row 3.
std::vector<Row> AdoptionRows(const std::string& folio, int folders, int files_per_folder) {
  Row row{"3. list " + std::to_string(folders * files_per_folder) + " hand-added files in " + std::to_string(folders) +
              " folders (all pages) + sync vs cp -a + sync",
          "", "", "", "<= 1.5x", "FAIL"};
  Row growth{"   data directory growth by adoption vs the content's size", "", "", "", "metadata only", "info"};
  const std::string src = folio::bench::MakeTempDir("handsrc");
  const std::string line(200, 'a');
  for (int f = 0; f < folders; ++f) {
    const std::string dir = src + "/folder-" + std::to_string(f);
    fs::create_directory(dir);
    for (int i = 0; i < files_per_folder; ++i) {
      std::ofstream(dir + "/note-" + std::to_string(i) + ".txt") << line << i << "\n";
    }
  }
  std::vector<double> ratios, folio_ns, cp_ns;
  uint64_t grown_kb = 0, content_kb = 0;
  for (int pass = 0; pass < 3; ++pass) {
    // Baseline: cp -a of the tree, then sync.
    const std::string copy = folio::bench::MakeTempDir("cp");
    Run("sync");
    int64_t start = NowNs();
    Run("cp -a '" + src + "/.' '" + copy + "/' && sync");
    const double baseline = static_cast<double>(NowNs() - start);
    content_kb = DiskBlocks(copy) / 2;
    fs::remove_all(copy);
    // Folio: the same tree copied by hand into a repository (not timed), then every
    // page of every folder listed, then sync.
    const std::string data = MakeCycleData(0, "");
    Run("cp -a '" + src + "/.' '" + data + "/demo/main/' && sync");
    const uint64_t before = DiskBlocks(data);
    Server server = folio::bench::StartServer(folio, data);
    if (server.port == 0) {
      row.folio = "server did not start";
      return {row};
    }
    httplib::Client cli("127.0.0.1", server.port);
    cli.set_tcp_nodelay(true);  // as curl and browsers: no Nagle wait on a POST's body
    // The pages are parsed once the time is taken: the client's JSON parser (on the
    // same cores) is not the server's listing.
    std::vector<std::string> pages;
    start = NowNs();
    for (int f = 0; f < folders; ++f) {
      for (int skip = 0;; skip += 1000) {
        auto r = cli.Get("/demo/main/folder-" + std::to_string(f) +
                         "?cmisselector=children&succinct=true&maxItems=1000&skipCount=" + std::to_string(skip));
        if (!r || r->status != 200) {
          row.folio = "a listing failed";
          folio::bench::StopServer(server);
          return {row};
        }
        pages.push_back(std::move(r->body));
        // The answer ends with its hasMoreItems and numItems (docs/API.md §4.2).
        const size_t more = pages.back().rfind("\"hasMoreItems\":");
        if (more == std::string::npos || pages.back().compare(more + 15, 4, "true") != 0) break;
      }
    }
    Run("sync");
    const double took = static_cast<double>(NowNs() - start);
    folio::bench::StopServer(server);
    size_t listed = 0;
    for (const std::string& page : pages) {
      auto j = nlohmann::json::parse(page, nullptr, /*allow_exceptions=*/false);
      if (j.is_object() && j["objects"].is_array()) listed += j["objects"].size();
    }
    if (listed != static_cast<size_t>(folders * files_per_folder)) {
      row.folio = "listed " + std::to_string(listed) + " objects";
      return {row};
    }
    grown_kb = (DiskBlocks(data) - before) / 2;
    fs::remove_all(data);
    folio_ns.push_back(took);
    cp_ns.push_back(baseline);
    ratios.push_back(took / baseline);
  }
  fs::remove_all(src);
  const size_t m = folio::bench::MedianIndex(ratios);
  row.folio = FormatNs(folio_ns[m]);
  row.baseline = FormatNs(cp_ns[m]);
  row.ratio = FormatFixed(ratios[m], 2) + "x";
  row.verdict = ratios[m] <= 1.5 ? "PASS" : "FAIL";
  growth.folio = std::to_string(grown_kb) + " KB";
  growth.baseline = std::to_string(content_kb) + " KB";
  growth.ratio = FormatFixed(static_cast<double>(grown_kb) / static_cast<double>(content_kb), 2) + "x";
  return {row, growth};
}

}  // namespace

int main(int argc, char** argv) {
  const folio::bench::ServerBenchArgs args = folio::bench::ParseServerBenchArgs(argc, argv);
  const bool quick = args.quick;
  const std::string& folio = args.folio;
  std::vector<Row> rows;
  // --cycles: rows 1 and 2 only (an A/B of the write path need not wait for row 3);
  // --adoption: row 3 only.
  bool cycles_only = false, adoption_only = false;
  for (int i = 1; i < argc; ++i) {
    cycles_only |= std::string(argv[i]) == "--cycles";
    adoption_only |= std::string(argv[i]) == "--adoption";
  }
  if (!adoption_only) {
    for (Row& r : CycleRows(folio, quick ? 20 : 100)) rows.push_back(r);
  }
  if (!cycles_only) {
    for (Row& r : AdoptionRows(folio, 10, quick ? 100 : 1000)) rows.push_back(r);
  }
  std::cout << folio::bench::FormatTable(rows);
  return 0;
}
