// The test-fixture endpoints over HTTP (docs/API.md §14): POST /-/reset, snapshots and
// restore, GET /-/events with Last-Event-ID, the Folio-Change-Token answer header,
// Folio-Fault (only with --faults), and that they need the server administrator.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "http/raw_socket.h"
#include "repo/query/query_index.h"
#include "repo/query/sqlite.h"
#include "http/server_fixture.h"
#include "support/serve_process.h"

namespace folio::testing {
namespace {

ServerConfig FixtureConfig() {
  ServerConfig config;
  config.fixture_endpoints = true;
  return config;
}

// Creates document `name` in /demo/REPO/docs and returns the answer.
httplib::Result CreateDoc(httplib::Client& c, const std::string& repo, const std::string& name,
                          const httplib::Headers& headers = {}) {
  Json body{{"cmisaction", "createDocument"},
            {"content", "x"},
            {"succinct", "true"},
            {"properties", Json{{"cmis:name", name}, {"cmis:objectTypeId", "cmis:document"}}}};
  return c.Post(("/demo/" + repo + "/docs").c_str(), headers, body.dump(), "application/json");
}

int StatusOf(httplib::Client& c, const std::string& path) {
  auto r = c.Get(path.c_str());
  REQUIRE(r);
  return r->status;
}

// One Server-Sent Event as a stream sent it.
struct Frame {
  std::string event;
  std::string id;
  std::string data;
};

// Reads GET /-/events on a thread of its own; frames are kept as they arrive.
class EventReader {
 public:
  explicit EventReader(int port, std::string last_event_id = "") : client_(TestClient("127.0.0.1", port)) {
    client_.set_read_timeout(60, 0);
    httplib::Headers headers;
    if (!last_event_id.empty()) headers.emplace("Last-Event-ID", last_event_id);
    thread_ = std::thread([this, headers] {
      auto r = client_.Get(
          "/-/events", headers,
          [this](const httplib::Response& response) {
            std::lock_guard<std::mutex> lock(mu_);
            status_ = response.status;
            content_type_ = response.get_header_value("Content-Type");
            cv_.notify_all();
            return true;
          },
          [this](const char* data, size_t n) {
            std::lock_guard<std::mutex> lock(mu_);
            text_.append(data, n);
            Parse();
            cv_.notify_all();
            return !stop_;
          });
      std::lock_guard<std::mutex> lock(mu_);
      ended_ = true;
      if (r && status_ == 0) status_ = r->status;
      cv_.notify_all();
    });
  }
  ~EventReader() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    client_.stop();
    thread_.join();
  }

  // Waits (up to 60 s) until `done(frames)` holds; returns the frames then.
  template <typename Pred>
  std::vector<Frame> WaitFor(Pred done) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(60), [&] { return done(frames_) || ended_; });
    return frames_;
  }
  // Waits until the event with id `id` arrived (the wait-for-token of a test).
  std::vector<Frame> WaitForId(const std::string& id) {
    return WaitFor([&](const std::vector<Frame>& fs) {
      return std::any_of(fs.begin(), fs.end(), [&](const Frame& f) { return f.id == id; });
    });
  }
  void WaitOpen() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(20), [&] { return status_ != 0 || ended_; });
  }
  bool ended() {
    std::lock_guard<std::mutex> lock(mu_);
    return ended_;
  }
  // Waits (up to 20 s) until the stream has ended.
  bool WaitEnded() {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return ended_; });
  }
  int status() {
    std::lock_guard<std::mutex> lock(mu_);
    return status_;
  }
  std::string content_type() {
    std::lock_guard<std::mutex> lock(mu_);
    return content_type_;
  }
  std::string text() {
    std::lock_guard<std::mutex> lock(mu_);
    return text_;
  }

 private:
  void Parse() {  // requires mu_
    for (size_t end; (end = text_.find("\n\n", parsed_)) != std::string::npos; parsed_ = end + 2) {
      Frame f;
      std::string_view block(text_.data() + parsed_, end - parsed_);
      bool any = false;
      while (!block.empty()) {
        const size_t nl = block.find('\n');
        std::string_view line = block.substr(0, nl);
        block = nl == std::string_view::npos ? std::string_view() : block.substr(nl + 1);
        if (line.rfind("event: ", 0) == 0) f.event = line.substr(7), any = true;
        if (line.rfind("id: ", 0) == 0) f.id = line.substr(4), any = true;
        if (line.rfind("data: ", 0) == 0) f.data = line.substr(6), any = true;
      }
      if (any) frames_.push_back(std::move(f));
    }
  }

  httplib::Client client_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string text_;
  size_t parsed_ = 0;
  std::vector<Frame> frames_;
  int status_ = 0;
  std::string content_type_;
  bool stop_ = false;
  bool ended_ = false;
};

// A raw connection (raw_socket.h), closed at the end; `receive_buffer` > 0 makes its
// receive buffer that small (a client that reads slowly holds little in flight).
class Socket {
 public:
  explicit Socket(int port, int receive_buffer = 0) {
    if (receive_buffer == 0) {
      fd_ = Connect(port, 10);
      return;
    }
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
    timeval timeout{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  ~Socket() { ::close(fd_); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  void Send(const std::string& bytes) { SendAll(fd_, bytes); }
  std::string ReadAll() { return testing::ReadAll(fd_); }

 private:
  int fd_ = -1;
};

std::string ChangeToken(const httplib::Result& r) {
  REQUIRE(r);
  return r->get_header_value("Folio-Change-Token");
}

}  // namespace

TEST_CASE("Fixture: POST /-/reset brings back the start state while the server serves") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    REQUIRE(CreateDoc(c, v.repo, "new.txt")->status == 201);
    REQUIRE(StatusOf(c, "/demo/" + v.repo + "/docs/new.txt") == 200);
  }
  auto created = c.Post("/", Json{{"cmisaction", "createDomain"}, {"domainId", "other"}}.dump(), "application/json");
  REQUIRE(created);
  REQUIRE(created->status == 201);
  // A kept answer of the start state's document, then a change to it.
  REQUIRE(c.Get("/demo/alpha/docs/readme.txt")->body == "hello");
  auto reset = c.Post("/-/reset");
  REQUIRE(reset);
  CHECK(reset->status == 200);
  CHECK(BodyJson(reset) == Json{{"reset", true}});
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    CHECK(StatusOf(c, "/demo/" + v.repo + "/docs/new.txt") == 404);
    CHECK(c.Get(("/demo/" + v.repo + "/docs/readme.txt").c_str())->body == "hello");
    // The change log is the start state's: the folder and the document only.
    Json changes = GetJson(c, "/demo/" + v.repo + "?cmisselector=contentChanges");
    CHECK(changes["objects"].size() == 2);
  }
  CHECK(StatusOf(c, "/other") == 404);
  // The server goes on: writes after the reset work, and a second reset undoes them.
  REQUIRE(CreateDoc(c, "beta", "after.txt")->status == 201);
  REQUIRE(c.Post("/-/reset")->status == 200);
  CHECK(StatusOf(c, "/demo/beta/docs/after.txt") == 404);
  // Nothing is left beside the data directory, once the old states are removed (in the
  // background).
  const std::filesystem::path data(server.dir());
  const std::string swap_prefix = "." + data.filename().string() + ".folio-swap-";
  auto swaps_left = [&] {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(data.parent_path())) {
      n += e.path().filename().string().rfind(swap_prefix, 0) == 0;
    }
    return n;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (swaps_left() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(swaps_left() == 0);
}

TEST_CASE("Fixture: a reset waits for requests in flight, and later ones see the reset state") {
  ServerFixture server(FixtureConfig());
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::thread reader([&] {
    auto c = server.Client();
    while (!stop) {
      auto r = c.Get("/demo/alpha/docs/readme.txt");
      if (!r || r->status != 200 || r->body != "hello") ++failures;
    }
  });
  auto c = server.Client();
  for (int i = 0; i < 5; ++i) {
    REQUIRE(CreateDoc(c, "alpha", "n" + std::to_string(i) + ".txt")->status == 201);
    REQUIRE(c.Post("/-/reset")->status == 200);
    CHECK(StatusOf(c, "/demo/alpha/docs/n" + std::to_string(i) + ".txt") == 404);
  }
  stop = true;
  reader.join();
  CHECK(failures == 0);
}

TEST_CASE("Fixture: a reset answers while overlapping reads never stop and an event stream is open") {
  ServerFixture server(FixtureConfig());
  api::Service& service = server.service();
  EventReader events(server.port());  // held open throughout: it holds no lock
  events.WaitOpen();
  // Readers that overlap all the time: some always holds the state shared.
  std::atomic<bool> stop{false};
  std::atomic<int> reads{0}, failures{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 6; ++t) {
    readers.emplace_back([&] {
      api::Request list;
      list.method = "GET";
      list.path = {"demo", "alpha", "docs"};
      list.query = {{"cmisselector", "children"}};
      list.peer_loopback = true;
      list.base_url = "http://127.0.0.1";
      while (!stop) {
        if (service.Handle(list).status != 200) ++failures;
        ++reads;
      }
    });
  }
  while (reads < 200) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto c = server.Client();
  for (int i = 0; i < 5; ++i) {
    CAPTURE(i);
    const auto start = std::chrono::steady_clock::now();
    auto reset = c.Post("/-/reset");
    const auto took = std::chrono::steady_clock::now() - start;
    REQUIRE(reset);
    CHECK(reset->status == 200);
    CHECK(took < std::chrono::seconds(3));
  }
  const int before = reads;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(reads > before);  // the readers go on after it
  stop = true;
  for (std::thread& t : readers) t.join();
  CHECK(failures == 0);
  events.WaitFor([](const std::vector<Frame>& fs) {
    return std::count_if(fs.begin(), fs.end(), [](const Frame& f) { return f.event == "reset"; }) == 5;
  });
}

TEST_CASE("Fixture: the fixture endpoints need the server administrator") {
  ServerConfig config = FixtureConfig();
  config.service.admin_password = "server-Pa55";
  ServerFixture server(config);
  auto c = server.Client();
  for (const auto& request : std::vector<std::pair<std::string, std::string>>{
           {"POST", "/-/reset"}, {"GET", "/-/snapshots"}, {"GET", "/-/events"}, {"POST", "/-/snapshots/a/restore"}}) {
    const std::string& method = request.first;  // clang 14 cannot capture a structured binding
    const std::string& path = request.second;
    CAPTURE(path);
    auto r = method == "GET" ? c.Get(path.c_str()) : c.Post(path.c_str());
    REQUIRE(r);
    CHECK(r->status == 401);
    CHECK(BodyJson(r)["exception"] == "unauthorized");
  }
  c.set_basic_auth("admin", "wrong");
  CHECK(c.Post("/-/reset")->status == 401);
  c.set_basic_auth("admin", "server-Pa55");
  CHECK(c.Post("/-/reset")->status == 200);
  CHECK(c.Get("/-/snapshots")->status == 200);
}

TEST_CASE("Fixture: snapshots are taken, listed, restored and deleted") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  REQUIRE(CreateDoc(c, "alpha", "one.txt")->status == 201);
  auto taken = c.Post("/-/snapshots", Json{{"name", "with-one"}}.dump(), "application/json");
  REQUIRE(taken);
  CHECK(taken->status == 201);
  CHECK(BodyJson(taken) == Json{{"snapshot", "with-one"}});
  // A snapshot is an ordinary data directory, kept outside the data directory.
  CHECK(ClassifyDirectory(server.snapshot_dir() + "/with-one") == DirKind::kDataDirectory);
  CHECK(std::filesystem::exists(server.snapshot_dir() + "/with-one/demo/alpha/docs/one.txt"));
  REQUIRE(CreateDoc(c, "alpha", "two.txt")->status == 201);

  Json list = GetJson(c, "/-/snapshots");
  REQUIRE(list["snapshots"].size() == 1);
  CHECK(list["snapshots"][0]["name"] == "with-one");
  CHECK(list["snapshots"][0]["size"].get<int64_t>() > 0);
  CHECK(list["snapshots"][0]["time"].is_string());

  auto restored = c.Post("/-/snapshots/with-one/restore");
  REQUIRE(restored);
  CHECK(restored->status == 200);
  CHECK(BodyJson(restored) == Json{{"restored", "with-one"}});
  CHECK(StatusOf(c, "/demo/alpha/docs/one.txt") == 200);
  CHECK(StatusOf(c, "/demo/alpha/docs/two.txt") == 404);
  // Restored twice: the snapshot itself is never changed by serving its state.
  REQUIRE(CreateDoc(c, "alpha", "three.txt")->status == 201);
  REQUIRE(c.Post("/-/snapshots/with-one/restore")->status == 200);
  CHECK(StatusOf(c, "/demo/alpha/docs/three.txt") == 404);
  // Reset goes back past the snapshot to the start.
  REQUIRE(c.Post("/-/reset")->status == 200);
  CHECK(StatusOf(c, "/demo/alpha/docs/one.txt") == 404);

  auto deleted = c.Delete("/-/snapshots/with-one");
  REQUIRE(deleted);
  CHECK(deleted->status == 200);
  CHECK(GetJson(c, "/-/snapshots")["snapshots"].empty());
  CHECK(!std::filesystem::exists(server.snapshot_dir() + "/with-one"));
}

// Holds the first query-index build that calls it in the middle of writing its
// database (query_index.h SetBuildHookForTest) until Release(), or until the build is
// stopped; later builds go on. Unset when it goes.
class HeldBuild {
 public:
  HeldBuild() {
    query::SetBuildHookForTest([this](const std::string& label, const std::atomic<bool>& stop) {
      std::unique_lock<std::mutex> lock(mu_);
      if (!label_.empty()) return;
      label_ = label;
      cv_.notify_all();
      // Polled: the build's stop flag comes with no notification.
      while (!released_ && !stop) cv_.wait_for(lock, std::chrono::milliseconds(2));
      stopped_ = stop.load();
    });
  }
  ~HeldBuild() {
    Release();
    query::SetBuildHookForTest(nullptr);
  }
  // Waits (up to 30 s) until a build is held; returns its repository ("" none).
  std::string WaitHeld() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(30), [&] { return !label_.empty(); });
    return label_;
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    released_ = true;
  }
  // True once the held build was stopped (rather than released).
  bool stopped() {
    std::lock_guard<std::mutex> lock(mu_);
    return stopped_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string label_;
  bool released_ = false;
  bool stopped_ = false;
};

TEST_CASE("Fixture: a snapshot taken while a query index is built is whole, and queries its state") {
  // The query indexes write their databases in the background (here their first build,
  // started as `folio serve` does after its ready line). One is held in the middle of
  // writing while the snapshot is taken: the snapshot must stop it and copy the database
  // closed, whole by itself (no SQLite write-ahead log, shared memory or journal beside
  // it), not as it is half-way.
  HeldBuild held;
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  constexpr int kDocs = 5;
  for (int i = 0; i < kDocs; ++i) REQUIRE(CreateDoc(c, "alpha", "q" + std::to_string(i) + ".txt")->status == 201);
  server.service().StartQueryIndexing();
  const std::string base = held.WaitHeld();
  REQUIRE(!base.empty());
  auto snap = c.Post("/-/snapshots?name=s");
  REQUIRE(snap);
  REQUIRE_MESSAGE(snap->status == 201, snap->body);
  CHECK(held.stopped());  // the snapshot stopped the build rather than copy it half-way
  held.Release();

  const std::filesystem::path copy = std::filesystem::path(server.snapshot_dir()) / "s";
  for (const auto& e : std::filesystem::recursive_directory_iterator(copy)) {
    const std::string name = e.path().filename().string();
    CAPTURE(e.path().string());
    CHECK(name.find("-wal") == std::string::npos);
    CHECK(name.find("-shm") == std::string::npos);
    CHECK(name.find("-journal") == std::string::npos);
  }
  // The held repository's database, alone, holds what its build had committed.
  TempDir alone;
  const std::string db_copy = alone.path() + "/query.sqlite";
  std::filesystem::copy_file(copy / (base + "/.folio/query.sqlite"), db_copy);
  auto db = query::Db::OpenExisting(db_copy);
  REQUIRE_MESSAGE(db.ok(), db.status().message());
  auto schema = (*db)->Prepare("SELECT count(*) FROM sqlite_master WHERE name = 'meta'");
  REQUIRE_MESSAGE(schema.ok(), schema.status().message());
  auto row = schema->Step();
  REQUIRE(row.ok());
  REQUIRE(*row);
  CHECK(schema->Int(0) == 1);

  // The snapshot restored queries its own state.
  REQUIRE(CreateDoc(c, "alpha", "after.txt")->status == 201);
  auto restored = c.Post("/-/snapshots/s/restore");
  REQUIRE(restored);
  REQUIRE_MESSAGE(restored->status == 200, restored->body);
  auto q = c.Get(("/demo/alpha?cmisselector=query&succinct=true&q=" +
                  httplib::detail::encode_query_param("SELECT cmis:name FROM cmis:document"))
                     .c_str());
  REQUIRE(q);
  REQUIRE_MESSAGE(q->status == 200, q->body);
  CHECK(BodyJson(q)["numItems"] == kDocs + 1);  // and readme.txt; not after.txt
}

TEST_CASE("Fixture: snapshot errors name the snapshot, and change nothing") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  auto missing_name = c.Post("/-/snapshots", "{}", "application/json");
  CHECK(missing_name->status == 400);
  CHECK(BodyJson(missing_name)["message"].get<std::string>().find("'name'") != std::string::npos);
  for (const std::string& bad : {std::string(".hidden"), std::string("a/b"), std::string(65, 'x'), std::string("")}) {
    CAPTURE(bad);
    auto r = c.Post("/-/snapshots", Json{{"name", bad}}.dump(), "application/json");
    CHECK(r->status == 400);
    CHECK(BodyJson(r)["exception"] == "invalidArgument");
  }
  REQUIRE(c.Post("/-/snapshots", Json{{"name", "s1"}}.dump(), "application/json")->status == 201);
  auto again = c.Post("/-/snapshots", Json{{"name", "s1"}}.dump(), "application/json");
  CHECK(again->status == 409);
  CHECK(BodyJson(again)["exception"] == "contentAlreadyExists");
  CHECK(BodyJson(again)["message"].get<std::string>().find("'s1'") != std::string::npos);
  auto no_such = c.Post("/-/snapshots/nope/restore");
  CHECK(no_such->status == 404);
  CHECK(BodyJson(no_such)["message"].get<std::string>().find("'nope'") != std::string::npos);
  CHECK(c.Delete("/-/snapshots/nope")->status == 404);
  CHECK(c.Get("/-/snapshots/s1/restore")->status == 405);
  CHECK(c.Get("/-/reset")->status == 405);
  CHECK(c.Post("/-/nothing")->status == 404);
  CHECK(StatusOf(c, "/demo/alpha/docs/readme.txt") == 200);
}

TEST_CASE("Fixture: every write answers Folio-Change-Token, the token of its last event") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    auto created = CreateDoc(c, v.repo, "t.txt");
    REQUIRE(created->status == 201);
    const std::string token = ChangeToken(created);
    Json changes = GetJson(c, "/demo/" + v.repo + "?cmisselector=contentChanges");
    CHECK(token == "demo/" + v.repo + "/" + changes["changeLogToken"].get<std::string>());
    // Reads carry none; a write that changes nothing carries none.
    CHECK(ChangeToken(c.Get(("/demo/" + v.repo + "/docs/t.txt").c_str())).empty());
    auto failed = CreateDoc(c, v.repo, "t.txt");
    CHECK(failed->status == 409);
    CHECK(ChangeToken(failed).empty());
  }
}

// The ids of `frames` that have one (events, not comments nor resets), in order.
std::vector<std::string> IdsOf(const std::vector<Frame>& frames) {
  std::vector<std::string> ids;
  for (const Frame& f : frames) {
    if (!f.id.empty()) ids.push_back(f.id);
  }
  return ids;
}

TEST_CASE("Fixture: GET /-/events streams every change as it is committed, from Last-Event-ID") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  EventReader events(server.port());
  events.WaitOpen();
  CHECK(events.status() == 200);
  CHECK(events.content_type().rfind("text/event-stream", 0) == 0);
  std::string last_alpha;
  std::vector<std::string> after_alpha;  // the ids of the events after alpha's
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    auto created = CreateDoc(c, v.repo, "e.txt");
    REQUIRE(created->status == 201);
    const std::string token = ChangeToken(created);
    if (!last_alpha.empty()) after_alpha.push_back(token);
    if (v.repo == "alpha") last_alpha = token;
    std::vector<Frame> frames = events.WaitForId(token);
    REQUIRE(!frames.empty());
    const Frame& f = frames.back();
    CHECK(f.id == token);
    CHECK(f.event == "created");
    Json data = Json::parse(f.data);
    CHECK(data["repositoryId"] == v.repo);
    CHECK(data["changeEventInfo"]["changeType"] == "created");
    CHECK(data["succinctProperties"][v.prefix + "objectId"] == BodyJson(created)["succinctProperties"][v.prefix + "objectId"]);
    CHECK(data["succinctProperties"][v.prefix + "baseTypeId"] == v.prefix + "document");
  }
  // Deleted and updated events, in log order.
  auto del = c.Post("/demo/alpha/docs/e.txt", Json{{"cmisaction", "delete"}}.dump(), "application/json");
  REQUIRE(del->status == 200);
  std::vector<Frame> frames = events.WaitForId(ChangeToken(del));
  CHECK(frames.back().event == "deleted");
  after_alpha.push_back(ChangeToken(del));
  // From Last-Event-ID: the events of every repository after it.
  EventReader resumed(server.port(), last_alpha);
  CHECK(IdsOf(resumed.WaitForId(ChangeToken(del))) == after_alpha);
  auto bad = c.Get("/-/events", {{"Last-Event-ID", "nonsense"}});
  CHECK(bad->status == 400);
  CHECK(BodyJson(bad)["message"].get<std::string>().find("Last-Event-ID") != std::string::npos);
  // A reset is announced, and the stream goes on with the reset state's events.
  REQUIRE(c.Post("/-/reset")->status == 200);
  const size_t until_reset =
      events.WaitFor([](const std::vector<Frame>& fs) { return !fs.empty() && fs.back().event == "reset"; }).size();
  auto after = CreateDoc(c, "alpha", "after-reset.txt");
  REQUIRE(after->status == 201);
  // The log starts again from the reset state's: its next token may be one an event
  // before the reset had. Waited for among the frames after the reset's.
  const std::string token = ChangeToken(after);
  frames = events.WaitFor([&](const std::vector<Frame>& fs) {
    return std::any_of(fs.begin() + static_cast<std::ptrdiff_t>(std::min(until_reset, fs.size())), fs.end(),
                       [&](const Frame& f) { return f.id == token; });
  });
  REQUIRE(frames.size() > until_reset);
  CHECK(frames.back().id == token);
  CHECK(frames.back().event == "created");
}

TEST_CASE("Fixture: a stream resumed with Last-Event-ID gets every repository's missed events, once, in order") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  auto write = [&](const std::string& repo, const std::string& name) {
    auto r = CreateDoc(c, repo, name);
    REQUIRE(r);
    REQUIRE(r->status == 201);
    return ChangeToken(r);
  };
  std::string last_seen;
  {
    EventReader events(server.port());
    events.WaitOpen();
    const std::vector<std::string> seen = {write("alpha", "a1.txt"), write("beta", "b1.txt"), write("alpha", "a2.txt")};
    CHECK(IdsOf(events.WaitForId(seen.back())) == seen);
    last_seen = seen.back();
  }  // the subscriber goes away
  // Written while it was away, in both repositories, in turn.
  std::vector<std::string> missed;
  for (int i = 0; i < 3; ++i) {
    missed.push_back(write("beta", "away-b" + std::to_string(i) + ".txt"));
    missed.push_back(write("alpha", "away-a" + std::to_string(i) + ".txt"));
  }
  {
    EventReader resumed(server.port(), last_seen);
    resumed.WaitOpen();
    REQUIRE(resumed.status() == 200);
    missed.push_back(write("beta", "live.txt"));  // and then the live events
    CHECK(IdsOf(resumed.WaitForId(missed.back())) == missed);
    last_seen = missed.back();
  }
  // Away across a reset: the reset, then the new state's events only.
  write("alpha", "lost-in-reset.txt");
  REQUIRE(c.Post("/-/reset")->status == 200);
  const std::string after_reset = write("beta", "after-reset.txt");
  EventReader resumed(server.port(), last_seen);
  std::vector<Frame> frames = resumed.WaitForId(after_reset);
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].event == "reset");
  CHECK(frames[1].id == after_reset);
}

TEST_CASE("Fixture: 20 subscribers get all of 10,000 writes in log order, none lost or repeated") {
  ServerConfig config = FixtureConfig();
  config.http.threads = 4;
  ServerFixture server(config);
  constexpr int kSubscribers = 20;
  constexpr int kWriters = 4;
  constexpr int kWrites = 10000;
  std::vector<std::unique_ptr<EventReader>> readers;
  for (int i = 0; i < kSubscribers; ++i) readers.push_back(std::make_unique<EventReader>(server.port()));
  for (auto& r : readers) r->WaitOpen();
  std::atomic<int> next{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&] {
      auto c = server.Client();
      for (int i; (i = next++) < kWrites;) {
        Json body{{"cmisaction", "createFolder"},
                  {"properties", Json{{"cmis:name", "f" + std::to_string(i)}, {"cmis:objectTypeId", "cmis:folder"}}}};
        auto r = c.Post("/demo/beta", body.dump(), "application/json");
        if (!r || r->status != 201) ++failed;
      }
    });
  }
  for (auto& t : writers) t.join();
  REQUIRE(failed == 0);
  auto c = server.Client();
  Json info = GetJson(c, "/demo/beta?cmisselector=repositoryInfo");
  const uint64_t latest = std::stoull(info["beta"]["latestChangeLogToken"].get<std::string>());
  const std::string last_id = "demo/beta/" + std::to_string(latest);
  for (auto& r : readers) {
    std::vector<Frame> frames = r->WaitForId(last_id);
    std::vector<uint64_t> tokens;
    for (const Frame& f : frames) {
      if (f.id.rfind("demo/beta/", 0) == 0) tokens.push_back(std::stoull(f.id.substr(10)));
    }
    REQUIRE(tokens.size() == static_cast<size_t>(kWrites));
    bool consecutive = true;
    for (size_t k = 1; k < tokens.size(); ++k) consecutive = consecutive && tokens[k] == tokens[k - 1] + 1;
    CHECK(consecutive);
    CHECK(tokens.back() == latest);
  }
}

TEST_CASE("Fixture events: a subscriber that falls too far behind is dropped with an event saying so") {
  // (Over HTTP the sockets' buffers take megabytes before a stalled client holds the
  // server back; the hub is what bounds what waits for it, tested here directly.)
  api::fixture::EventHub hub({.max_buffered_bytes = 4096, .keep_alive = std::chrono::milliseconds(50)});
  auto slow = hub.Subscribe();
  auto fast = hub.Subscribe();
  REQUIRE(slow);
  REQUIRE(fast);
  auto slow_body = hub.Stream(slow, {});
  auto fast_body = hub.Stream(fast, {});
  std::string fast_text;
  const auto started = std::chrono::steady_clock::now();
  for (uint64_t token = 1; token <= 200; ++token) {
    ChangeEventInfo e{token, 0, "created", "d" + std::to_string(token), "cmis:document", "cmis:document", {}};
    hub.Publish("demo/alpha", "A", {e});  // never waits for a subscriber
    std::string part;
    REQUIRE(fast_body->Next(part).ok());
    fast_text += part;
  }
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  CHECK(fast_text.find("id: demo/alpha/200\n") != std::string::npos);
  // The slow one gets what its buffer held, then the event saying it was dropped, then
  // its stream ends.
  std::string slow_text;
  for (int i = 0; i < 100; ++i) {
    std::string part;
    auto more = slow_body->Next(part);
    REQUIRE(more.ok());
    slow_text += part;
    if (!*more) break;
  }
  CHECK(slow_text.find("id: demo/alpha/1\n") != std::string::npos);
  CHECK(slow_text.find("id: demo/alpha/200\n") == std::string::npos);
  CHECK(slow_text.size() < 4096 + 1024);
  CHECK(slow_text.find("event: dropped") != std::string::npos);
  CHECK(hub.subscribers() == 1);
  // A stream with nothing to send sends a keep-alive comment; Close ends it.
  std::string idle;
  REQUIRE(fast_body->Next(idle).ok());
  CHECK(idle == ": keep-alive\n\n");
  hub.Close();
  std::string last;
  auto ended = fast_body->Next(last);
  REQUIRE(ended.ok());
  CHECK(!*ended);
  CHECK(!hub.Subscribe());
}

TEST_CASE("Fixture: event streams end when the server stops, and at most 64 are open") {
  auto server = std::make_unique<ServerFixture>(FixtureConfig());
  std::vector<std::unique_ptr<EventReader>> readers;
  for (size_t i = 0; i < api::fixture::kMaxSubscribers; ++i) {
    readers.push_back(std::make_unique<EventReader>(server->port()));
  }
  for (auto& r : readers) r->WaitOpen();
  auto c = server->Client();
  auto refused = c.Get("/-/events");
  REQUIRE(refused);
  CHECK(refused->status == 409);
  CHECK(BodyJson(refused)["message"].get<std::string>().find("64") != std::string::npos);
  // The server is still served while the streams are open.
  CHECK(StatusOf(c, "/demo/alpha/docs/readme.txt") == 200);
  const auto started = std::chrono::steady_clock::now();
  server.reset();  // stops: the streams end instead of holding it up
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
  for (auto& r : readers) {
    CHECK(r->WaitEnded());
  }
}

TEST_CASE("Fixture: Folio-Fault is refused without --faults") {
  ServerFixture server(FixtureConfig());
  auto c = server.Client();
  auto r = c.Get("/demo/alpha/docs/readme.txt", {{"Folio-Fault", "status=503"}});
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(BodyJson(r)["exception"] == "invalidArgument");
  CHECK(BodyJson(r)["message"].get<std::string>().find("--faults") != std::string::npos);
  auto w = CreateDoc(c, "alpha", "f.txt", {{"Folio-Fault", "status=503"}});
  CHECK(w->status == 400);
  CHECK(StatusOf(c, "/demo/alpha/docs/f.txt") == 404);
}

TEST_CASE("Fixture: Folio-Fault status, delay, truncate and reset with --faults") {
  ServerConfig config = FixtureConfig();
  config.service.fixture.faults = true;
  ServerFixture server(config);
  auto c = server.Client();
  SUBCASE("status: an error answer, and the request is not run") {
    auto r = CreateDoc(c, "alpha", "s.txt", {{"Folio-Fault", "status=503"}});
    REQUIRE(r);
    CHECK(r->status == 503);
    CHECK(BodyJson(r)["exception"] == "runtime");
    CHECK(BodyJson(r)["message"].get<std::string>().find("Folio-Fault") != std::string::npos);
    CHECK(StatusOf(c, "/demo/alpha/docs/s.txt") == 404);
    auto nf = c.Get("/demo/alpha/docs/readme.txt", {{"Folio-Fault", "status=404"}});
    CHECK(nf->status == 404);
    CHECK(BodyJson(nf)["exception"] == "objectNotFound");
  }
  SUBCASE("delay: the request runs after the wait") {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = CreateDoc(c, "alpha", "d.txt", {{"Folio-Fault", "delay=300"}});
    const auto waited = std::chrono::steady_clock::now() - t0;
    CHECK(r->status == 201);
    CHECK(waited >= std::chrono::milliseconds(300));
    CHECK(StatusOf(c, "/demo/alpha/docs/d.txt") == 200);
  }
  SUBCASE("truncate: the request runs, its body stops there and the connection closes") {
    Socket s(server.port());
    s.Send("GET /demo/alpha/docs/readme.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nFolio-Fault: truncate=2\r\n\r\n");
    const std::string got = s.ReadAll();
    CHECK(got.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(got.find("\r\n\r\n2\r\nhe\r\n") != std::string::npos);
    CHECK(got.find("0\r\n\r\n") == std::string::npos);  // never a complete body
    auto w = CreateDoc(c, "alpha", "t.txt", {{"Folio-Fault", "truncate=0"}});
    CHECK((!w || w->body.empty() || w->status == 201));
    CHECK(StatusOf(c, "/demo/alpha/docs/t.txt") == 200);  // the work was done
  }
  SUBCASE("reset: the request runs, and the connection closes without an answer") {
    Socket s(server.port());
    Json body{{"cmisaction", "createDocument"},
              {"content", "x"},
              {"properties", Json{{"cmis:name", "r.txt"}, {"cmis:objectTypeId", "cmis:document"}}}};
    const std::string text = body.dump();
    s.Send("POST /demo/alpha/docs HTTP/1.1\r\nHost: 127.0.0.1\r\nFolio-Fault: reset\r\nContent-Type: "
           "application/json\r\nContent-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text);
    CHECK(s.ReadAll().empty());
    CHECK(StatusOf(c, "/demo/alpha/docs/r.txt") == 200);
  }
  SUBCASE("several joined by ';', and every malformed header refused by name") {
    auto r = c.Get("/demo/alpha/docs/readme.txt", {{"Folio-Fault", "delay=10; status=500"}});
    CHECK(r->status == 500);
    for (const char* bad : {"status=200", "status=abc", "delay=99999999", "explode", "reset=1", "status=500;status=503", ""}) {
      CAPTURE(bad);
      auto b = c.Get("/demo/alpha/docs/readme.txt", {{"Folio-Fault", *bad == '\0' ? ";" : bad}});
      CHECK(b->status == 400);
      CHECK(BodyJson(b)["message"].get<std::string>().find("Folio-Fault") != std::string::npos);
    }
  }
}

// The ids a script gets building a fixture on a server started with `args`: a folder, a
// document in it (with its version) and an item, in each variant.
std::vector<std::string> ScriptIds(const std::string& data, const std::vector<std::string>& args) {
  ServeProcess serve(data, args);
  auto c = TestClient("127.0.0.1", serve.port());
  std::vector<std::string> ids;
  for (const FixtureVariant& v : kFixtureVariants) {
    Json folder{{"cmisaction", "createFolder"},
                {"succinct", "true"},
                {"properties", Json{{"cmis:name", "made"}, {"cmis:objectTypeId", "cmis:folder"}}}};
    auto f = c.Post(("/demo/" + v.repo).c_str(), folder.dump(), "application/json");
    REQUIRE(f);
    REQUIRE(f->status == 201);
    ids.push_back(BodyJson(f)["succinctProperties"][v.prefix + "objectId"]);
    auto d = CreateDoc(c, v.repo, "made.txt");
    REQUIRE(d->status == 201);
    ids.push_back(BodyJson(d)["succinctProperties"][v.prefix + "objectId"]);
  }
  return ids;
}

TEST_CASE("Fixture: --deterministic-ids gives a script the same ids on every run") {
  TempDir fixture;
  BuildFixtureData(fixture.path());
  const std::vector<std::string> first = ScriptIds(fixture.path(), {"--ephemeral", "--deterministic-ids", "7"});
  const std::vector<std::string> second = ScriptIds(fixture.path(), {"--ephemeral", "--deterministic-ids", "7"});
  const auto joined = [](const std::vector<std::string>& ids) {
    std::string out;
    for (const std::string& id : ids) out += id + " ";
    return out;
  };
  CHECK_MESSAGE(first == second, joined(first) << "then " << joined(second));
  CHECK(std::set<std::string>(first.begin(), first.end()).size() == first.size());  // all different
  const std::vector<std::string> other = ScriptIds(fixture.path(), {"--ephemeral", "--deterministic-ids", "8"});
  CHECK(other != first);
  const std::vector<std::string> random = ScriptIds(fixture.path(), {"--ephemeral"});
  CHECK(random != first);
}

TEST_CASE("Fixture: folio serve resets an --ephemeral copy to its source, and a served directory to its start") {
  TempDir fixture;
  BuildFixtureData(fixture.path());
  for (bool ephemeral : {true, false}) {
    CAPTURE(ephemeral);
    std::vector<std::string> args = {"--faults"};
    args.push_back(ephemeral ? "--ephemeral" : "--keep-start-state");
    {
      ServeProcess serve(fixture.path(), args);
      auto c = TestClient("127.0.0.1", serve.port());
      REQUIRE(CreateDoc(c, "alpha", "gone.txt")->status == 201);
      auto snap = c.Post("/-/snapshots?name=one");
      REQUIRE(snap);
      CHECK(snap->status == 201);
      REQUIRE(c.Post("/-/reset")->status == 200);
      CHECK(StatusOf(c, "/demo/alpha/docs/gone.txt") == 404);
      CHECK(StatusOf(c, "/demo/alpha/docs/readme.txt") == 200);
      REQUIRE(c.Post("/-/snapshots/one/restore")->status == 200);
      CHECK(StatusOf(c, "/demo/alpha/docs/gone.txt") == 200);
      CHECK(c.Get("/demo/alpha/docs/readme.txt", {{"Folio-Fault", "status=503"}})->status == 503);
      REQUIRE(c.Post("/-/reset")->status == 200);
    }
    CHECK(!std::filesystem::exists(fixture.path() + "/demo/alpha/docs/gone.txt"));
    if (!ephemeral) {
      // Snapshots are kept beside the data directory, and the start copy is gone at exit.
      CHECK(std::filesystem::exists(fixture.path() + ".snapshots/one/demo/alpha/docs/gone.txt"));
      for (const auto& e : std::filesystem::directory_iterator(fixture.path() + ".snapshots")) {
        CHECK(e.path().filename().string().rfind(".start-", 0) != 0);
      }
      std::filesystem::remove_all(fixture.path() + ".snapshots");
    }
  }
}

TEST_CASE("Fixture: a served directory is not copied at start unless --keep-start-state; reset then says so") {
  TempDir fixture;
  BuildFixtureData(fixture.path());
  {
    ServeProcess serve(fixture.path(), {});
    auto c = TestClient("127.0.0.1", serve.port());
    // Nothing was copied: the snapshot directory holds no start state.
    if (std::filesystem::exists(fixture.path() + ".snapshots")) {
      for (const auto& e : std::filesystem::directory_iterator(fixture.path() + ".snapshots")) {
        CHECK(e.path().filename().string().rfind(".start-", 0) != 0);
      }
    }
    auto reset = c.Post("/-/reset");
    REQUIRE(reset);
    CHECK(reset->status == 405);
    CHECK(reset->body.find("notSupported") != std::string::npos);
    CHECK(reset->body.find("--keep-start-state") != std::string::npos);
    CHECK(reset->body.find("--ephemeral") != std::string::npos);
    // Snapshots work without it.
    REQUIRE(CreateDoc(c, "alpha", "kept.txt")->status == 201);
    REQUIRE(c.Post("/-/snapshots?name=s")->status == 201);
    REQUIRE(c.Post("/-/snapshots/s/restore")->status == 200);
    CHECK(StatusOf(c, "/demo/alpha/docs/kept.txt") == 200);
  }
  std::filesystem::remove_all(fixture.path() + ".snapshots");
}

TEST_CASE("Fixture: a listing still being sent across two resets is cut short and reads nothing freed") {
  ServerFixture server(FixtureConfig());
  api::Service& service = server.service();
  // A folder whose listing is more than one part (64 KiB), kept as a snapshot.
  auto c = server.Client();
  constexpr int kDocs = 150;
  for (int i = 0; i < kDocs; ++i) REQUIRE(CreateDoc(c, "alpha", "d" + std::to_string(i) + ".txt")->status == 201);
  REQUIRE(c.Post("/-/snapshots?name=big")->status == 201);
  REQUIRE(c.Post("/-/snapshots/big/restore")->status == 200);  // the service's own Store now
  api::Request reset;
  reset.method = "POST";
  reset.path = {"-", "reset"};
  reset.peer_loopback = true;
  api::Request list;
  list.method = "GET";
  list.path = {"demo", "alpha", "docs"};
  list.query = {{"cmisselector", "children"}, {"maxItems", "1000"}};
  list.peer_loopback = true;
  list.base_url = "http://127.0.0.1";
  api::Response answer = service.Handle(list);
  REQUIRE(answer.status == 200);
  REQUIRE(answer.producer != nullptr);  // made while it is sent
  // Two resets before the body is made: the first replaces the Store the listing
  // reads, the second would free it.
  REQUIRE(service.Handle(reset).status == 200);
  REQUIRE(service.Handle(reset).status == 200);
  // It stops with an error, which cuts the answer short (never a whole answer of
  // half the old state), and reads nothing freed meanwhile.
  std::string body = answer.body;
  Status stopped;
  for (int parts = 0; parts < 1000; ++parts) {
    auto more = answer.producer->Next(body);
    if (!more.ok()) {
      stopped = more.status();
      break;
    }
    REQUIRE(*more);  // never ends as if whole
  }
  CHECK(stopped.kind() == ErrorKind::kStorage);
  CHECK(stopped.message().find("reset or restored while this answer was being sent") != std::string::npos);
  answer.producer.reset();  // the listing's repository goes, then its Store
}

}  // namespace folio::testing
