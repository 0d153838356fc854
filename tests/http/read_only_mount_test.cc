// `folio serve` over a small filesystem (tmpfs), full or read-only. On a read-only mount (a tmpfs remounted read-only,
// where this process may mount: root on Linux): every read is served without
// --read-only, files made by hand included; every write answers `storage` naming the
// read-only filesystem; the server stays up; fsck finds the store clean. On a full one,
// writes answer storage naming the cause, and a delete makes room for the next write
// at once (its garbage is removed without waiting for a checkpoint).
#include <doctest/doctest.h>
#include <sys/mount.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "http/server_fixture.h"
#include "support/http_client.h"
#include "support/serve_process.h"
#include "support/temp_dir.h"
#include "support/tree_snapshot.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

// A small tmpfs mounted at a fresh directory, unmounted at the end.
struct SmallMount {
  TempDir dir;
  bool mounted = false;
  explicit SmallMount(const std::string& size) {
    mounted = ::mount("tmpfs", dir.path().c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  bool Remount(unsigned long flags) {
    return ::mount("tmpfs", dir.path().c_str(), "tmpfs", MS_REMOUNT | flags, nullptr) == 0;
  }
  ~SmallMount() {
    if (mounted) ::umount2(dir.path().c_str(), MNT_DETACH);
  }
};

}  // namespace

TEST_CASE("Read-only mount: folio serve reads without --read-only, writes answer storage, fsck clean") {
  SmallMount m("16m");
  if (!m.mounted) {
    // Not root, or no mount in this sandbox: tests/repo/read_only_test.cc covers the
    // engine on a filesystem that answers EROFS everywhere.
    MESSAGE("cannot mount a tmpfs here (" << std::strerror(errno) << "); the real mount case is not run");
    return;
  }
  const std::string data = m.dir.path() + "/data";
  BuildFixtureData(data);
  fs::create_directories(data + "/demo/beta/Handmade");
  std::ofstream(data + "/demo/beta/Handmade/new.txt") << "made by hand";
  REQUIRE(m.Remount(MS_RDONLY));
  const std::string before = TreeSnapshot(data);
  {
    ServeProcess server(data);
    auto c = TestClient("127.0.0.1", server.port());
    c.set_read_timeout(30, 0);
    auto readme = c.Get("/demo/beta/docs/readme.txt");
    REQUIRE(readme);
    CHECK(readme->status == 200);
    CHECK(readme->body == "hello");
    auto hand = c.Get("/demo/beta/Handmade/new.txt");
    REQUIRE(hand);
    CHECK(hand->status == 200);
    CHECK(hand->body == "made by hand");
    auto listing = c.Get("/demo/beta/Handmade?cmisselector=children");
    REQUIRE(listing);
    CHECK(listing->status == 200);
    CHECK(listing->body.find("new.txt") != std::string::npos);
    auto made = c.Post("/demo/beta/docs",
                       "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=x"
                       "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder",
                       "application/x-www-form-urlencoded");
    REQUIRE(made);
    CHECK(made->status == 500);
    CHECK(BodyJson(made)["exception"] == "storage");
    const std::string message = BodyJson(made)["message"];
    CHECK_MESSAGE(message.find("read-only") != std::string::npos, message);
    CHECK_MESSAGE(message.find("demo/beta") != std::string::npos, message);
    auto again = c.Get("/demo/beta/docs/readme.txt");  // still up, still reading
    REQUIRE(again);
    CHECK(again->status == 200);
  }
  CHECK(TreeSnapshot(data) == before);
  const std::string fsck = std::string(FOLIO_BINARY) + " fsck " + data + " > /dev/null 2>&1";
  CHECK(std::system(fsck.c_str()) == 0);
}

TEST_CASE("Full disk: folio serve on a small tmpfs answers storage naming it, keeps serving, fsck clean") {
  SmallMount m("8m");  // each repository's commit log takes 1 MiB
  if (!m.mounted) {
    // tests/repo/failure_test.cc covers ENOSPC at every step through FaultyFs.
    MESSAGE("cannot mount a tmpfs here (" << std::strerror(errno) << "); the real full disk is not tried");
    return;
  }
  const std::string data = m.dir.path() + "/data";
  BuildFixtureData(data);
  {
    ServeProcess server(data);
    auto c = TestClient("127.0.0.1", server.port());
    c.set_read_timeout(60, 0);
    const std::string big(512 * 1024, 'x');
    int made = 0;
    std::string failure;
    for (int i = 0; i < 40 && failure.empty(); ++i) {
      httplib::MultipartFormDataItems form = {
          {"cmisaction", "createDocument", "", ""},
          {"propertyId[0]", "cmis:name", "", ""},
          {"propertyValue[0]", "big" + std::to_string(i) + ".bin", "", ""},
          {"propertyId[1]", "cmis:objectTypeId", "", ""},
          {"propertyValue[1]", "cmis:document", "", ""},
          {"content", big, "big.bin", "application/octet-stream"}};
      auto r = c.Post("/demo/beta/docs", form);
      REQUIRE(r);
      if (r->status == 201) {
        ++made;
        continue;
      }
      CHECK(r->status == 500);
      CHECK(BodyJson(r)["exception"] == "storage");
      failure = BodyJson(r)["message"];
    }
    CHECK(made >= 1);
    REQUIRE_MESSAGE(!failure.empty(), "the disk never filled");
    CHECK_MESSAGE(failure.find("No space left") != std::string::npos, failure);
    // Reads go on; what was acknowledged is there whole.
    auto readme = c.Get("/demo/beta/docs/readme.txt");
    REQUIRE(readme);
    CHECK(readme->body == "hello");
    for (int i = 0; i < made; ++i) {
      auto got = c.Get(("/demo/beta/docs/big" + std::to_string(i) + ".bin").c_str());
      REQUIRE(got);
      CHECK(got->status == 200);
      CHECK(got->body.size() == big.size());
    }
    CHECK(c.Get(("/demo/beta/docs/big" + std::to_string(made) + ".bin").c_str())->status == 404);
    // Fill what is left but a few pages, whatever the failing write left free: what
    // follows must then get its room from the deleted document.
    const std::string filler = m.dir.path() + "/filler";
    {
      std::FILE* f = std::fopen(filler.c_str(), "wb");
      REQUIRE(f != nullptr);
      std::setvbuf(f, nullptr, _IONBF, 0);
      const std::string page(4096, 'f');
      while (std::fwrite(page.data(), 1, page.size(), f) == page.size()) {
      }
      std::fclose(f);
      fs::resize_file(filler, fs::file_size(filler) / 4096 * 4096);
    }
    // Room made again (a delete needs no more than a few pages): writes work again at
    // once, before any idle checkpoint could have removed the deleted files.
    REQUIRE(c.Post("/demo/beta/docs/big0.bin", Json{{"operation", "delete"}}.dump(), "application/json")->status <
            300);
    auto after = c.Post("/demo/beta/docs",
                        Json{{"operation", "createDocument"},
                             {"content", "small"},
                             {"properties", {{"cmis:name", "after.txt"}, {"cmis:objectTypeId", "cmis:document"}}}}
                            .dump(),
                        "application/json");
    REQUIRE(after);
    CHECK_MESSAGE(after->status == 201, after->body);
  }
  const std::string fsck = std::string(FOLIO_BINARY) + " fsck " + data + " > /dev/null 2>&1";
  CHECK(std::system(fsck.c_str()) == 0);
}

}  // namespace folio::testing
