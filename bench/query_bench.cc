// Query (issue "Query: CMIS QL over an index"), section 4: on a repository of 100,000
// documents in 1,000 folders, files of a few words made by hand and then picked up by
// Folio, against `folio serve` (the real executable, over HTTP):
//   1. the ready line comes as fast as for an empty data directory (nothing to index);
//   2. the index is complete within 60 s of the start;
//   3. equality on the name, IN_FOLDER (maxItems 100) and LIKE 'prefix%' (about 100
//      matches): median at most 2% of a warm `find DIR -type f -name NAME`;
//   4. CONTAINS of a word in about 100 documents, maxItems 10: median at most 5% of a
//      warm `grep -rl WORD DIR`;
//   5. resident memory of the server after the queries under 50 MB.
// Usage: folio_bench_query [--fixture DIR] [--quick] [--folio PATH]
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>

#include "bench_util.h"
#include "folio/store.h"

namespace fs = std::filesystem;
using namespace folio;
using namespace folio::bench;

namespace {

constexpr const char* kDomain = "bench";
constexpr const char* kRepo = "text";

struct Spec {
  std::string name;
  int folders = 0;
  int per_folder = 0;
  int docs() const { return folders * per_folder; }
};

std::string Pad(int v, int width) {
  std::string s = std::to_string(v);
  return std::string(width > static_cast<int>(s.size()) ? width - s.size() : 0, '0') + s;
}
std::string FolderName(int f) { return "folder-" + Pad(f, 4); }
std::string DocName(int i) { return "doc-" + Pad(i, 6) + ".txt"; }
// Word k (0..999) appears in the documents i with i % 1000 == k: 100 of 100,000.
std::string Word(int k) { return "w" + Pad(k, 3); }

// The fixture: files written by hand, then adopted by the engine (as the first request
// touching each would), cached between runs.
Status EnsureFixture(const std::string& root, const Spec& spec) {
  const std::string data = root + "/" + spec.name;
  const std::string done = root + "/" + spec.name + ".done";
  if (fs::exists(done)) return OkStatus();
  std::error_code ec;
  fs::remove_all(data, ec);
  fs::create_directories(data, ec);
  std::cerr << "fixture: writing " << spec.docs() << " files by hand in " << data << "\n";
  {
    auto store = Store::Open(data, {.durable = false});
    if (!store.ok()) return store.status();
    FOLIO_RETURN_IF_ERROR((*store)->CreateDomain(kDomain, "query benchmark").status());
    RepositoryInfo info;
    info.repository_id = kRepo;
    FOLIO_RETURN_IF_ERROR((*store)->CreateRepository(kDomain, info).status());
  }
  const std::string repo_dir = data + "/" + kDomain + "/" + kRepo;
  for (int f = 0; f < spec.folders; ++f) {
    const std::string dir = repo_dir + "/" + FolderName(f);
    fs::create_directories(dir, ec);
    for (int j = 0; j < spec.per_folder; ++j) {
      const int i = f * spec.per_folder + j;
      std::ofstream(dir + "/" + DocName(i))
          << "note " << i << " about " << Word(i % 1000) << " and the " << (i % 2 ? "red" : "blue") << " box\n";
    }
  }
  std::cerr << "fixture: Folio picks them up (adoption through the engine, no fsync)\n";
  auto store = Store::Open(data, {.durable = false});
  if (!store.ok()) return store.status();
  auto repo = (*store)->GetRepository(kDomain, kRepo);
  if (!repo.ok()) return repo.status();
  const int64_t start = NowNs();
  auto folders = (*repo)->GetChildren((*repo)->info().root_folder_id, 0, 100000);
  if (!folders.ok()) return folders.status();
  int n = 0;
  for (const ObjectData& folder : folders->objects) {
    auto page = (*repo)->GetChildren(folder.id, 0, 100000);
    if (!page.ok()) return page.status();
    if (++n % 100 == 0) std::cerr << "fixture: " << n << " folders adopted (" << FormatNs(NowNs() - start) << ")\n";
  }
  std::ofstream(done) << spec.docs() << "\n";
  return OkStatus();
}

struct Server {
  pid_t pid = -1;
  int port = 0;
  FILE* err = nullptr;  // the log
  double ready_ns = 0;  // from the start to the ready line
  int64_t started_ns = 0;
};

Server Start(const std::string& folio, const std::string& data) {
  int out[2], err[2];
  Server s;
  if (::pipe(out) != 0 || ::pipe(err) != 0) return s;
  s.started_ns = NowNs();
  s.pid = ::fork();
  if (s.pid == 0) {
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::close(out[0]);
    ::close(err[0]);
    ::execl(folio.c_str(), folio.c_str(), "serve", "--data", data.c_str(), "--port", "0", "--log-level", "info",
            "--threads", "2", static_cast<char*>(nullptr));
    _exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  FILE* in = ::fdopen(out[0], "r");
  char line[256] = {0};
  if (std::fgets(line, sizeof line, in) != nullptr) {
    s.ready_ns = static_cast<double>(NowNs() - s.started_ns);
    std::string l(line);
    const size_t colon = l.rfind(':');
    if (colon != std::string::npos) s.port = std::atoi(l.c_str() + colon + 1);
  }
  std::fclose(in);
  s.err = ::fdopen(err[0], "r");
  return s;
}

// Reads the log until the index of bench/text is built; the time since the start.
double WaitBuilt(Server& s, std::string& line_out) {
  char line[1024];
  while (std::fgets(line, sizeof line, s.err) != nullptr) {
    const std::string l(line);
    if (l.find("query index of bench/text: built:") != std::string::npos) {
      line_out = l.substr(l.find("query index"));
      while (!line_out.empty() && line_out.back() == '\n') line_out.pop_back();
      return static_cast<double>(NowNs() - s.started_ns);
    }
  }
  return -1;
}

// Drains the log in the background (the server must never block writing it).
std::thread Drain(FILE* err) {
  return std::thread([err] {
    char line[1024];
    while (std::fgets(line, sizeof line, err) != nullptr) {
    }
  });
}

// User plus system CPU time of `pid` so far (the machine is shared: the wall time of a
// build depends on the other work, its CPU time much less).
double CpuNs(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(f);  // utime, stime
  }
  return ticks * 1e9 / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one;
}

int64_t RssKb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

double TimeCommand(const std::string& cmd) {
  const int64_t start = NowNs();
  const int rc = std::system((cmd + " > /dev/null 2>&1").c_str());
  (void)rc;
  return static_cast<double>(NowNs() - start);
}

double MedianOf(int runs, const std::function<double()>& f) {
  std::vector<double> v;
  for (int i = 0; i < runs; ++i) v.push_back(f());
  return Median(v);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Query benchmark: CMIS QL over the index against find and grep"};
  std::string fixture = "/tmp/folio-bench-query";
  std::string folio = FOLIO_BINARY;
  bool quick = false;
  app.add_option("--fixture", fixture, "where the fixture is cached");
  app.add_option("--folio", folio, "the folio executable");
  app.add_flag("--quick", quick, "10,000 documents in 100 folders");
  CLI11_PARSE(app, argc, argv);
  const Spec spec = quick ? Spec{"quick", 100, 100} : Spec{"full", 1000, 100};
  if (Status s = EnsureFixture(fixture, spec); !s.ok()) {
    std::cerr << "cannot make the fixture: " << s.ToString() << "\n";
    return 1;
  }
  const std::string data = fixture + "/" + spec.name;
  const std::string repo_dir = data + "/" + kDomain + "/" + kRepo;
  std::vector<Row> rows;

  // 1. The ready line: an empty data directory against this one (whose index must be built).
  const std::string empty = fixture + "/empty";
  fs::create_directories(empty);
  std::vector<double> ready_empty, ready_full;
  // The time to the ready line of a server started on `dir` and stopped at once.
  auto ready = [&](const std::string& dir) {
    Server server = Start(folio, dir);
    std::thread drain = Drain(server.err);
    ::kill(server.pid, SIGTERM);
    ::waitpid(server.pid, nullptr, 0);
    drain.join();
    std::fclose(server.err);
    return server.ready_ns;
  };
  for (int i = 0; i < 5; ++i) {
    ready_empty.push_back(ready(empty));
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(repo_dir + "/.folio/query.sqlite" + suffix);
    ready_full.push_back(ready(data));
  }
  const double re = Median(ready_empty), rf = Median(ready_full);
  rows.push_back({"1. ready line, " + std::to_string(spec.docs()) + " docs to index vs empty data dir", FormatNs(rf),
                  FormatNs(re), FormatFixed(rf / re, 2), "<= ~1 (noise)", rf <= re * 1.5 + 5e6 ? "PASS" : "FAIL"});

  // 2. The index from nothing.
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(repo_dir + "/.folio/query.sqlite" + suffix);
  Server server = Start(folio, data);
  if (server.port == 0) {
    std::cerr << "folio serve did not start\n";
    return 1;
  }
  std::string built_line;
  const double built = WaitBuilt(server, built_line);
  const double cpu = CpuNs(server.pid);
  const std::string load = LoadAverage();
  std::thread drain = Drain(server.err);
  std::cerr << built_line << "\n";
  rows.push_back({"2. index complete after start (" + std::to_string(spec.docs()) + " docs)", FormatNs(built), "", "",
                  "<= 60 s", built > 0 && built <= 60e9 ? "PASS" : "FAIL"});
  rows.push_back({"   CPU time of the server until then (user + system), load average " + load, FormatNs(cpu), "", "",
                  "", "info"});

  // 3, 4. Queries over HTTP, warm, against find and grep.
  httplib::Client c("127.0.0.1", server.port);
  c.set_tcp_nodelay(true);  // as curl and browsers: no Nagle wait on a POST's body
  c.set_read_timeout(120, 0);
  auto query = [&](const std::string& statement, int max_items) -> double {
    httplib::Params p{
        {"cmisselector", "query"}, {"q", statement}, {"maxItems", std::to_string(max_items)}, {"succinct", "true"}};
    const int64_t start = NowNs();
    auto r = c.Get("/bench/text?" + httplib::detail::params_to_query_str(p));
    const double ns = static_cast<double>(NowNs() - start);
    if (!r || r->status != 200) {
      std::cerr << "query failed: " << statement << ": " << (r ? r->body : "no answer") << "\n";
      return -1;
    }
    return ns;
  };
  auto count = [&](const std::string& statement) -> int64_t {
    auto r = c.Get("/bench/text?" + httplib::detail::params_to_query_str(
                                        {{"cmisselector", "query"}, {"q", statement}, {"maxItems", "0"}}));
    if (!r || r->status != 200) return -1;
    return nlohmann::json::parse(r->body)["numItems"].get<int64_t>();
  };
  const int target = spec.docs() / 2 + 345;
  const std::string name = DocName(target);
  const int folder = target / spec.per_folder;
  std::string folder_id;
  {
    auto r = c.Get(("/bench/text/" + FolderName(folder) + "?cmisselector=object&succinct=true").c_str());
    folder_id = nlohmann::json::parse(r->body)["succinctProperties"]["cmis:objectId"];
  }
  const std::string prefix = DocName(target).substr(0, 8);  // "doc-0503": 100 names
  const std::string word = Word(target % 1000);
  struct Q {
    std::string what, statement;
    int max;
    int64_t expect;
  };
  const std::vector<Q> equal_like = {
      {"equality on cmis:name", "SELECT * FROM cmis:document WHERE cmis:name = '" + name + "'", 100, 1},
      {"IN_FOLDER, maxItems 100", "SELECT * FROM cmis:document WHERE IN_FOLDER('" + folder_id + "')", 100,
       spec.per_folder},
      {"LIKE '" + prefix + "%'", "SELECT * FROM cmis:document WHERE cmis:name LIKE '" + prefix + "%'", 100, 100},
  };
  const Q contains{"CONTAINS('" + word + "'), maxItems 10",
                   "SELECT * FROM cmis:document WHERE CONTAINS('" + word + "')", 10, spec.docs() / 1000};
  (void)TimeCommand("find " + repo_dir + " -type f -name " + name);  // warm the caches
  const double find_ns = MedianOf(5, [&] { return TimeCommand("find " + repo_dir + " -type f -name " + name); });
  (void)TimeCommand("grep -rl " + word + " " + repo_dir);
  const double grep_ns = MedianOf(5, [&] { return TimeCommand("grep -rl " + word + " " + repo_dir); });
  auto run = [&](const Q& q, double baseline, double limit, const std::string& base_text, int num) {
    const int64_t n = count(q.statement);
    for (int i = 0; i < 3; ++i) query(q.statement, q.max);  // warm
    std::vector<double> t;
    for (int i = 0; i < 21; ++i) t.push_back(query(q.statement, q.max));
    const double m = Median(t);
    const double ratio = m / baseline;
    const bool ok = n == q.expect && m > 0 && ratio <= limit;
    rows.push_back({std::to_string(num) + ". " + q.what + " (" + std::to_string(n) + " matches)", FormatNs(m),
                    base_text + " " + FormatNs(baseline), FormatFixed(100 * ratio, 2) + "%",
                    "<= " + FormatFixed(100 * limit, 0) + "%", ok ? "PASS" : "FAIL"});
  };
  for (const Q& q : equal_like) run(q, find_ns, 0.02, "find", 3);
  run(contains, grep_ns, 0.05, "grep -rl", 4);

  // 5. Memory after the queries.
  const int64_t rss = RssKb(server.pid);
  rows.push_back({"5. server resident memory after the queries", FormatKb(rss), "", "", "< 50 MB",
                  rss > 0 && rss < 50 * 1024 ? "PASS" : "FAIL"});
  ::kill(server.pid, SIGTERM);
  ::waitpid(server.pid, nullptr, 0);
  drain.join();
  std::fclose(server.err);
  std::cout << FormatTable(rows);
  return 0;
}
