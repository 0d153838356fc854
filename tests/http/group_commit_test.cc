// Group commit over HTTP (storage/committer.h, storage/wait_hooks.h): a request waiting
// for its change's flush does not hold a worker that other connections need, so that
// concurrent writers share flushes even when the server has fewer workers than
// writers (a two-core machine has two).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "http/server_fixture.h"
#include "support/faulty_fs.h"

namespace folio::testing {

TEST_CASE("Http group commit: with one worker and a slow disk, concurrent writers share flushes") {
  spdlog::set_level(spdlog::level::warn);
  TempDir dir;
  BuildFixtureData(dir.path());
  auto disk = OpenPosixFs(dir.path(), PosixFsOptions{.durable = false});
  REQUIRE(disk.ok());
  FaultyFs slow(**disk, FaultyFs::Failure{});
  slow.set_sync_delay(std::chrono::milliseconds(20));  // a flush as a slow disk makes it
  auto store = Store::Open(slow, StoreOptions{});
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  api::Service service(**store, api::ServiceOptions{});
  http::ServerOptions options;
  options.port = 0;
  options.threads = 1;
  http::Server server(service, options);
  REQUIRE(server.Start().ok());

  constexpr int kWriters = 8, kEach = 3;
  // Each writer its own folder: creations in one folder read its listing, which a
  // creation still in flight there changes, so those go one after another by design.
  {
    auto c = TestClient("127.0.0.1", server.port());
    for (int w = 0; w < kWriters; ++w) {
      auto r = c.Post("/demo/beta/docs", "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=w" +
                                             std::to_string(w) +
                                             "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder",
                      "application/x-www-form-urlencoded");
      REQUIRE(r);
      REQUIRE(r->status == 201);
    }
  }
  const int syncs_before = slow.data_syncs();
  std::atomic<int> created{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto c = TestClient("127.0.0.1", server.port());
      c.set_read_timeout(30, 0);
      for (int k = 0; k < kEach; ++k) {
        const std::string name = "w" + std::to_string(w) + "-" + std::to_string(k) + ".txt";
        auto r = c.Post("/demo/beta/docs/w" + std::to_string(w),
                        "cmisaction=createDocument&propertyId[0]=cmis:name&propertyValue[0]=" + name,
                        "application/x-www-form-urlencoded");
        if (r && r->status == 201) ++created;
      }
    });
  }
  for (std::thread& t : writers) t.join();
  const int syncs = slow.data_syncs() - syncs_before;
  server.Stop();
  MESSAGE((kWriters * kEach) << " documents created by " << kWriters << " connections with one core worker: " << syncs
                           << " log flushes");
  REQUIRE(created == kWriters * kEach);
  // One worker holding each request through its flush would flush once per document.
  CHECK(syncs <= kWriters * kEach / 2);
}

}  // namespace folio::testing
