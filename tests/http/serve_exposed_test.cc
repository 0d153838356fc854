// `folio serve` on an address other than loopback (docs/API.md §11.2): it
// refuses to start (exit 2, naming them) while a domain allows anonymous access,
// unless --insecure; clients there are no loopback clients, so server-level
// operations need FOLIO_ADMIN_PASSWORD; createDomain then needs an administrator.
#include <signal.h>

#include "http/auth_fixture.h"
#include "http/raw_socket.h"
#include "support/child_process.h"
#include "support/http_client.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

// A running `folio serve`; stopped with SIGTERM when destroyed.
struct Served {
  Served(const std::vector<std::string>& args, const std::vector<std::string>& env, const std::string& err)
      : child(Spawn(args, env, err)) {
    char line[256] = {0};
    if (std::fgets(line, sizeof line, child.out) != nullptr) ready = line;
  }
  ~Served() {
    if (child.pid > 0) ::kill(child.pid, SIGTERM);
    WaitExit(child.pid);
    std::fclose(child.out);
  }
  int Port() const { return std::stoi(ready.substr(ready.rfind(':') + 1)); }
  Child child;
  std::string ready;
};

// A data directory with the anonymous domain "demo" and, optionally, "acme" with a user.
void MakeData(const std::string& dir, bool with_anonymous) {
  auto store = Store::Open(dir, {.durable = false});
  REQUIRE(store.ok());
  api::Service service(**store, {});
  auto post = [&](std::vector<std::pair<std::string, std::string>> query) {
    api::Request r;
    r.method = "POST";
    r.peer_loopback = true;
    r.query = std::move(query);
    return service.Handle(r).status;
  };
  REQUIRE(post({{"operation", "createDomain"}, {"domainId", "acme"}, {"adminUserId", "root"},
                {"adminPassword", "root-pw"}}) == 201);
  if (with_anonymous) {
    REQUIRE(post({{"operation", "createDomain"}, {"domainId", "demo"}}) == 201);
    REQUIRE(post({{"operation", "createDomain"}, {"domainId", "open"}}) == 201);
  }
}

}  // namespace

TEST_CASE("Serve exposed: refuses anonymous domains beyond loopback; --insecure allows them") {
  const std::string address = ExternalAddress();
  if (address.empty()) {
    MESSAGE("skipped: this machine has no IPv4 address other than loopback to listen on");
    return;
  }
  TempDir dir;
  MakeData(dir.path(), /*with_anonymous=*/true);
  const std::string err = dir / "stderr";
  {
    Child refused = Spawn({FOLIO_BINARY, "serve", "--data", dir.path(), "--host", address, "--port", "0"}, {}, err);
    CHECK(WaitExit(refused.pid) == 2);
    char line[256];
    CHECK(std::fgets(line, sizeof line, refused.out) == nullptr);  // no ready line
    std::fclose(refused.out);
    const std::string message = ReadFile(err);
    CHECK(Contains(message, "demo, open"));
    CHECK(Contains(message, "--insecure"));
    CHECK_FALSE(Contains(message, "acme"));
  }
  Served insecure({FOLIO_BINARY, "serve", "--data", dir.path(), "--host", address, "--port", "0", "--insecure",
                   "--log-level", "warn"},
                  {}, err);
  REQUIRE(insecure.ready.rfind("folio listening on http://" + address + ":", 0) == 0);
  auto c = TestClient(address, insecure.Port());
  c.set_read_timeout(10, 0);
  CHECK(c.Get("/demo")->status == 200);
  CHECK(c.Get("/acme", BasicAuth("root", "root-pw"))->status == 200);
  // A client on this address is not on loopback: without FOLIO_ADMIN_PASSWORD the server
  // level is closed to it.
  auto server_level = c.Get("/");
  CHECK(server_level->status == 403);
  CHECK(Contains(server_level->body, "FOLIO_ADMIN_PASSWORD"));
}

TEST_CASE("Serve exposed: starts when every domain has users; createDomain then needs an administrator") {
  const std::string address = ExternalAddress();
  if (address.empty()) {
    MESSAGE("skipped: this machine has no IPv4 address other than loopback to listen on");
    return;
  }
  TempDir dir;
  MakeData(dir.path(), /*with_anonymous=*/false);
  Served served({FOLIO_BINARY, "serve", "--data", dir.path(), "--host", address, "--port", "0", "--log-level", "warn"},
                {"FOLIO_ADMIN_PASSWORD=server-pw"}, dir / "stderr");
  REQUIRE(served.ready.rfind("folio listening on http://" + address + ":", 0) == 0);
  auto c = TestClient(address, served.Port());
  c.set_read_timeout(10, 0);
  CHECK(c.Get("/")->status == 401);
  const httplib::Headers admin = BasicAuth("admin", "server-pw");
  CHECK(c.Get("/", admin)->status == 200);
  auto open = c.Post("/", admin, FormBody({{"operation", "createDomain"}, {"domainId", "open"}}),
                     "application/x-www-form-urlencoded");
  CHECK(open->status == 409);
  CHECK(Contains(open->body, "\"constraint\""));
  CHECK(Contains(open->body, "adminUserId"));
  auto closed = c.Post("/", admin,
                       FormBody({{"operation", "createDomain"}, {"domainId", "closed"}, {"adminUserId", "boss"},
                                 {"adminPassword", "boss-pw"}}),
                       "application/x-www-form-urlencoded");
  CHECK(closed->status == 201);
  CHECK(c.Get("/closed", BasicAuth("boss", "boss-pw"))->status == 200);
}

}  // namespace folio::testing
