// Rule R1, "reads never write" (docs/STORAGE.md §8.8, §10, §12): `folio serve
// --read-only`, `folio inspect`, and a server on a data directory it cannot write (a
// read-only bind mount; a directory owned by another user, the server run as nobody
// through setpriv) change no byte and no time of the data directory (TreeSnapshot: every
// entry's bytes, size, mtime, ctime, inode, links, the root included) and serve every
// read, query and contentChanges; the query index is built outside it. Without
// --read-only, writes answer `storage` naming the cause. Real processes, real
// filesystems: a test double would prove only what it was told.
#include <doctest/doctest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "cli/folio_run.h"
#include "http/server_fixture.h"
#include "support/http_client.h"
#include "support/serve_process.h"
#include "support/temp_dir.h"
#include "support/tree_snapshot.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

// The fixture data, a folder and a file made by hand, everything readable by anyone.
void BuildData(const std::string& data) {
  BuildFixtureData(data);
  fs::create_directories(data + "/demo/beta/Handmade");
  std::ofstream(data + "/demo/beta/Handmade/new.txt") << "made by hand";
}

std::string Get(httplib::Client& c, const std::string& url, int status = 200) {
  auto r = c.Get(url.c_str());
  REQUIRE_MESSAGE(r, url);
  CHECK_MESSAGE(r->status == status, url << ": " << r->body);
  return r->body;
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Every kind of read: the service document, objects by path and by id, versions, ACLs,
// the checked-out list, types, content, children, descendants, folder tree, parents, query (which builds the index) and
// contentChanges, files made by hand included.
void ReadWorkload(int port) {
  auto c = TestClient("127.0.0.1", port);
  c.set_read_timeout(60, 0);
  CHECK(Has(Get(c, "/"), "\"demo\""));
  CHECK(Has(Get(c, "/demo"), "beta"));
  CHECK(Get(c, "/demo/beta/docs/readme.txt") == "hello");
  const Json readme = Json::parse(Get(c, "/demo/beta/docs/readme.txt?cmisselector=object&succinct=true"));
  const std::string id = readme["succinctProperties"]["cmis:objectId"];
  CHECK(Has(Get(c, "/demo/beta?cmisselector=object&succinct=true&objectId=" + id), "readme.txt"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=versions&succinct=true&objectId=" + id), "readme.txt"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=acl&objectId=" + id), "aces"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=checkedOut"), "objects"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=typeChildren"), "cmis:document"));
  CHECK(Has(Get(c, "/demo/beta/docs?cmisselector=children"), "readme.txt"));
  CHECK(Get(c, "/demo/beta/Handmade/new.txt") == "made by hand");
  CHECK(Has(Get(c, "/demo/beta/Handmade?cmisselector=children"), "new.txt"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=descendants"), "new.txt"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=folderTree"), "Handmade"));
  CHECK(Has(Get(c, "/demo/beta/docs/readme.txt?cmisselector=parents"), "docs"));
  const std::string hits =
      Get(c, "/demo/beta?cmisselector=query&succinct=true&q=SELECT%20cmis:name%20FROM%20cmis:document");
  CHECK_MESSAGE(Has(hits, "readme.txt"), hits);
  CHECK_MESSAGE(Has(hits, "new.txt"), hits);
  CHECK(Has(Get(c, "/demo/alpha?cmisselector=query&q=SELECT%20*%20FROM%20cmis:folder"), "docs"));
  CHECK(Has(Get(c, "/demo/beta?cmisselector=contentChanges&succinct=true"), "\"changeType\":\"created\""));
}

// A write through the server: createFolder in /demo/beta/docs.
httplib::Result CreateFolder(int port) {
  auto c = TestClient("127.0.0.1", port);
  return c.Post("/demo/beta/docs",
                "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=x"
                "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder",
                "application/x-www-form-urlencoded");
}

// A server without --read-only on a data directory it cannot write: every read is
// served, before and after a write, which answers storage naming the repository and
// `cause`.
void ReadsServedWritesRefused(int port, const std::string& cause) {
  ReadWorkload(port);
  auto refused = CreateFolder(port);
  REQUIRE(refused);
  CHECK(refused->status == 500);
  CHECK(BodyJson(refused)["exception"] == "storage");
  const std::string message = BodyJson(refused)["message"];
  CHECK_MESSAGE(Has(message, cause), message);
  CHECK_MESSAGE(Has(message, "demo/beta"), message);
  ReadWorkload(port);
}

std::vector<std::string> EntriesOf(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// A read-only bind mount of a directory, undone at the end.
struct ReadOnlyBind {
  TempDir at;
  bool mounted = false;
  std::string error;
  explicit ReadOnlyBind(const std::string& source) {
    if (::mount(source.c_str(), at.path().c_str(), nullptr, MS_BIND, nullptr) != 0) {
      error = std::strerror(errno);
      return;
    }
    mounted = true;
    if (::mount(nullptr, at.path().c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
      error = std::strerror(errno);
      ::umount2(at.path().c_str(), MNT_DETACH);
      mounted = false;
    }
  }
  ~ReadOnlyBind() {
    if (mounted) ::umount2(at.path().c_str(), MNT_DETACH);
  }
};

// The lines of TreeSnapshot `b` that `a` lacks, and those of `a` that `b` lacks.
std::string ChangedLines(const std::string& a, const std::string& b) {
  auto lines = [](const std::string& text) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.insert(line);
    return out;
  };
  const std::set<std::string> before = lines(a), after = lines(b);
  std::string out;
  for (const std::string& l : before) {
    if (!after.count(l)) out += "- " + l + "\n";
  }
  for (const std::string& l : after) {
    if (!before.count(l)) out += "+ " + l + "\n";
  }
  return out;
}

// TreeSnapshot `snapshot` without the change time of the query index's files when this
// process is root: SQLite run as root gives a WAL file its database's owner each time it
// opens it (fchown to the same owner: a new change time, no byte, no other time).
std::string WithoutIndexCtimes(const std::string& snapshot) {
  if (::geteuid() != 0) return snapshot;
  std::istringstream in(snapshot);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find(" ctime=");
    if (line.find("/.folio/query.sqlite") != std::string::npos && at != std::string::npos) {
      line.erase(at, line.find(' ', at + 1) - at);
    }
    out += line + "\n";
  }
  return out;
}

// The snapshot of `data` once it has not changed for `quiet` (a writable server's own
// bookkeeping after its start: identity stamps, the query index, an idle checkpoint);
// at most 30 s.
std::string QuietSnapshot(const std::string& data, std::chrono::milliseconds quiet = std::chrono::milliseconds(3000)) {
  using Clock = std::chrono::steady_clock;
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  std::string last = TreeSnapshot(data);
  auto since = Clock::now();
  while (Clock::now() - since < quiet && Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    std::string now = TreeSnapshot(data);
    if (now != last) {
      last = std::move(now);
      since = Clock::now();
    }
  }
  return last;
}

}  // namespace

TEST_CASE("Reads never write: a writable server's reads write nothing to the data directory") {
  // Every kind of read, from the first one on, once the server's start-up bookkeeping
  // (files made by hand taken in, identity stamps, the query index) is done: no byte,
  // time, name or inode of the data directory moves, the domain's files included (a
  // domain nobody wrote to has no commit log: a read must not make one).
  TempDir tmp;
  const std::string data = tmp / "data";
  BuildData(data);
  REQUIRE_FALSE(fs::exists(data + "/demo/.folio/log"));
  ServeProcess server(data);
  const std::string settled = WithoutIndexCtimes(QuietSnapshot(data));
  ReadWorkload(server.port());
  ReadWorkload(server.port());
  const std::string after = WithoutIndexCtimes(QuietSnapshot(data));
  CHECK(after == settled);
  if (after != settled) MESSAGE("reads wrote:\n" << ChangedLines(settled, after));
  CHECK_FALSE(fs::exists(data + "/demo/.folio/log"));
}

TEST_CASE("Reads never write: folio serve --read-only and folio inspect change no byte or time of the data directory") {
  TempDir tmp;
  const std::string data = tmp / "data";
  BuildData(data);
  fs::create_directories(tmp / "scratch");
  const std::string before = TreeSnapshot(data);
  {
    ServeProcess server(data, {"--read-only"}, {}, {"TMPDIR=" + tmp / "scratch"});
    ReadWorkload(server.port());
    // Built outside the data directory, in a scratch directory of the server's own.
    CHECK(EntriesOf(tmp / "scratch").size() == 1);
    auto refused = CreateFolder(server.port());
    REQUIRE(refused);
    CHECK(refused->status == 403);
    CHECK(BodyJson(refused)["exception"] == "permissionDenied");
    ReadWorkload(server.port());  // the index, now built, answers again
    CHECK(server.Stop(SIGTERM) == 0);
  }
  CHECK(TreeSnapshot(data) == before);
  CHECK(EntriesOf(tmp / "scratch").empty());  // removed at exit
  const Run inspect = Folio("inspect " + Quote(data));
  CHECK_MESSAGE(inspect.code == 0, inspect.err);
  CHECK(TreeSnapshot(data) == before);
}

TEST_CASE("Reads never write: on a read-only bind mount folio serve serves every read; writes answer storage") {
  TempDir tmp;
  const std::string data = tmp / "data";
  BuildData(data);
  ReadOnlyBind ro(data);
  if (!ro.mounted) {
    MESSAGE("cannot bind-mount read-only here (" << ro.error << "): the read-only mount case is not run; "
            "the unwritable-directory case below and tests/repo/read_only_test.cc (EROFS everywhere) remain");
    return;
  }
  const std::string before = TreeSnapshot(data);
  {
    ServeProcess server(ro.at.path());
    ReadsServedWritesRefused(server.port(), "read-only");
  }
  CHECK(TreeSnapshot(data) == before);
}

TEST_CASE("Reads never write: a server that may not write the data directory serves every read; writes answer storage") {
  // chmod does not stop root: the server runs as nobody (setpriv), the data belongs to
  // root. Without root or setpriv the case cannot be made here.
  if (::geteuid() != 0 || ::access("/usr/bin/setpriv", X_OK) != 0) {
    MESSAGE("not root, or no /usr/bin/setpriv: the unwritable-directory case is not run");
    return;
  }
  TempDir tmp;
  fs::permissions(tmp.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  const std::string data = tmp / "data";
  BuildData(data);
  const std::string scratch = tmp / "scratch";
  fs::create_directories(scratch);
  fs::permissions(scratch, fs::perms::all | fs::perms::sticky_bit);
  const std::string before = TreeSnapshot(data);
  {
    ServeProcess server(data, {}, {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"},
                        {"TMPDIR=" + scratch});
    ReadsServedWritesRefused(server.port(), "may not write");
    CHECK(server.Stop(SIGTERM) == 0);
  }
  CHECK(TreeSnapshot(data) == before);
  CHECK(EntriesOf(scratch).empty());
}

}  // namespace folio::testing
