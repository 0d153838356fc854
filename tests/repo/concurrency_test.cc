// Concurrent readers and writers, in one Store and across two Stores on one data
// directory (two Stores take the cross-process lock through separate descriptors,
// as two processes would).
#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::MemRepoFixture;
using folio::testing::RepoFixture;

TEST_CASE_TEMPLATE("Concurrency: 50 simultaneous checkOuts of one document, exactly one succeeds", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "hot.txt", "x");
  std::atomic<int> ok{0}, versioning{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 50; ++i) {
    threads.emplace_back([&, i] {
      auto r = f.repo->CheckOut(doc.id, "user" + std::to_string(i), WriteCheck::Trusted());
      if (r.ok()) {
        ++ok;
      } else if (r.status().kind() == ErrorKind::kVersioning) {
        ++versioning;
      } else {
        ++other;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 1);
  CHECK(versioning == 49);
  CHECK(other == 0);
}

TEST_CASE_TEMPLATE("Concurrency: checkIn racing cancelCheckOut, exactly one wins", F,
                   RepoFixture, MemRepoFixture) {
  for (int round = 0; round < 10; ++round) {
    F f;
    ObjectData doc = f.Doc(f.root, "race.txt", "x");
    auto pwc = f.repo->CheckOut(doc.id, "a", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    Status checkin, cancel;
    std::thread t1([&] {
      CheckInRequest req;
      req.content = ContentSource::FromBytes("new");
      checkin = f.repo->CheckIn(pwc->id, req, "a", WriteCheck::Trusted()).status();
    });
    std::thread t2([&] { cancel = f.repo->CancelCheckOut(pwc->id, WriteCheck::Trusted()); });
    t1.join();
    t2.join();
    CHECK(checkin.ok() != cancel.ok());
    const Status& loser = checkin.ok() ? cancel : checkin;
    CHECK(loser.kind() == ErrorKind::kObjectNotFound);
    auto versions = f.repo->GetAllVersions(doc.id);
    REQUIRE(versions.ok());
    CHECK(versions->size() == (checkin.ok() ? 2u : 1u));
    CHECK(versions->back().properties["cmis:isVersionSeriesCheckedOut"] == false);
  }
}

TEST_CASE("Concurrency: two stores on one directory create and check in without losing anything") {
  RepoFixture f;
  auto second_store = Store::Open(f.dir.path(), StoreOptions{.durable = false});
  REQUIRE(second_store.ok());
  auto second = (*second_store)->GetRepository("demo", "main");
  REQUIRE(second.ok());
  Repository* repos[2] = {f.repo.get(), second->get()};
  constexpr int kPerThread = 15;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Repository& r = *repos[t % 2];
      for (int i = 0; i < kPerThread; ++i) {
        NewObject o;
        o.name = "t" + std::to_string(t) + "-" + std::to_string(i) + ".txt";
        auto d = r.CreateDocument(f.root, o, ContentSource::FromBytes(o.name), VersioningState::kMajor, "u",
                                  WriteCheck::Trusted());
        if (!d.ok()) { ++failures; continue; }
        auto pwc = r.CheckOut(d->id, "u", WriteCheck::Trusted());
        if (!pwc.ok()) { ++failures; continue; }
        CheckInRequest req;
        req.major = false;
        req.content = ContentSource::FromBytes(o.name + " v2");
        if (!r.CheckIn(pwc->id, req, "u", WriteCheck::Trusted()).ok()) ++failures;
      }
    });
  }
  // Readers alongside: every read sees a whole, valid object.
  std::atomic<bool> stop{false};
  std::atomic<int> bad_reads{0};
  std::thread reader([&] {
    while (!stop) {
      auto page = f.repo->GetChildren(f.root, 0, 1000);
      if (!page.ok()) { ++bad_reads; continue; }
      for (const ObjectData& o : page->objects) {
        const Json& label = o.properties["cmis:versionLabel"];
        if (!(label == "1.0" || label == "1.1" || label == "pwc")) ++bad_reads;
      }
    }
  });
  for (auto& t : threads) t.join();
  stop = true;
  reader.join();
  CHECK(failures == 0);
  CHECK(bad_reads == 0);
  auto page = (*second)->GetChildren(f.root, 0, 1000);
  REQUIRE(page.ok());
  CHECK(page->total == 4 * kPerThread);
  for (const ObjectData& o : page->objects) {
    CHECK(o.properties["cmis:versionLabel"] == "1.1");
    CHECK(f.Content(o.id) == o.name + " v2");
  }
}

TEST_CASE_TEMPLATE("Concurrency: same name created from many threads, exactly one wins", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  std::atomic<int> ok{0}, clash{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([&] {
      NewObject o;
      o.name = "same";
      auto r = (ok + clash) % 2 ? f.repo->CreateFolder(f.root, o, "u", WriteCheck::Trusted())
                                : f.repo->CreateDocument(f.root, o, std::nullopt, VersioningState::kMajor, "u",
                                                         WriteCheck::Trusted());
      if (r.ok()) ++ok;
      else if (r.status().kind() == ErrorKind::kNameConstraintViolation) ++clash;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 1);
  CHECK(clash == 15);
}
