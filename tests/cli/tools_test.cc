// The pieces of folio import, export and inspect that need no process: progress
// text, argument parsing, the export's version file names, the serving mark,
// MIME types by content, and inspect's --depth, history table, damage and JSON
// paths.
#include <doctest/doctest.h>

#include <thread>

#include <atomic>

#include <filesystem>

#include "cli/exporter.h"
#include "cli/inspect_fixture.h"
#include "cli/inspect_model.h"
#include "cli/inspect_render.h"
#include "cli/mime_sniffer.h"
#include "cli/progress.h"
#include "cli/serving_lock.h"
#include "cli/tool_args.h"

namespace folio::cli {
namespace {

using folio::testing::Contains;
using folio::testing::InspectFixture;
using folio::testing::RepoFixture;

TEST_CASE(
    "Progress: counts, bytes, rate and ETA; a bar on a terminal, the "
    "verb on a line") {
  CHECK(Thousands(0) == "0");
  CHECK(Thousands(999) == "999");
  CHECK(Thousands(1234567) == "1,234,567");
  CHECK(Duration(0) == "0:00");
  CHECK(Duration(75) == "1:15");
  CHECK(Duration(3725) == "1:02:05");
  CHECK(Progress::Format("import", false, 2500, 10000, 25 << 20, 100 << 20, 10) ==
        "import: 2,500/10,000 files  25.0 MiB/100.0 "
        "MiB  2.5 MiB/s  250 files/s  ETA 0:30");
  CHECK(Progress::Format("import", true, 2500, 10000, 25 << 20, 100 << 20, 10) ==
        "[######..................] 2,500/10,000 files  25.0 MiB/100.0 MiB  2.5 "
        "MiB/s  250 files/s  ETA 0:30");
  // Done: the time it took instead of an ETA.
  CHECK(Progress::Format("export", false, 4, 4, 100, 100, 2) ==
        "export: 4/4 files  100 B/100 B  50 B/s  2 files/s  0:02");
  // Empty files only: files measure the progress.
  CHECK(Contains(Progress::Format("import", false, 1, 4, 0, 0, 1), "ETA 0:03"));
  // Nothing measured yet: no rate, no ETA.
  CHECK(Progress::Format("import", false, 0, 4, 0, 10, 0) == "import: 0/4 files  0 B/10 B");
}

TEST_CASE("SplitRepositoryArg: DOMAIN/REPO, or an error naming the argument") {
  auto ok = SplitRepositoryArg("acme/docs/");
  REQUIRE(ok.ok());
  CHECK(ok->first == "acme");
  CHECK(ok->second == "docs");
  for (const char* bad : {"acme", "acme/", "/docs", "a/b/c", ""}) {
    auto r = SplitRepositoryArg(bad);
    CHECK(r.status().kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(r.status().message(), "'" + std::string(bad) + "' is not DOMAIN/REPO"));
  }
}

TEST_CASE(
    "Export: version files keep the extension last, so they open as the "
    "document does") {
  CHECK(VersionsDirName("q3.txt") == "q3.txt.versions");
  CHECK(VersionFileName("q3.txt", "1.1") == "q3 v1.1.txt");
  CHECK(VersionFileName("archive.tar.gz", "2.0") == "archive.tar v2.0.gz");
  CHECK(VersionFileName("README", "0.1") == "README v0.1");
  CHECK(VersionFileName(".profile", "1.0") == ".profile v1.0");
}

TEST_CASE(
    "ServingMark: held while a server lives; writers refused by any "
    "server, readers only by a writer") {
  folio::testing::TempDir tmp;
  std::filesystem::create_directories(tmp / ".folio");
  const std::string dir = tmp.path();
  CHECK(ServingNow(dir) == Serving::kNone);
  CHECK(CheckNotServed(dir, true, false).ok());
  {
    auto ro = ServingMark::Hold(dir, true);
    REQUIRE(ro.ok());
    CHECK(ServingNow(dir) == Serving::kReadOnly);
    CHECK(CheckNotServed(dir, false, false).ok());
    Status s = CheckNotServed(dir, true, false);
    CHECK(s.kind() == ErrorKind::kConstraint);
    CHECK(Contains(s.message(), "served by a folio serve --read-only"));
    {
      auto rw = ServingMark::Hold(dir, false);
      REQUIRE(rw.ok());
      auto rw2 = ServingMark::Hold(dir, false);  // two servers may share a directory
      REQUIRE(rw2.ok());
      CHECK(ServingNow(dir) == Serving::kReadWrite);
      CHECK(CheckNotServed(dir, false, false).kind() == ErrorKind::kConstraint);
      CHECK(CheckNotServed(dir, true, true).ok());  // --while-serving
    }
  }
  CHECK(ServingNow(dir) == Serving::kNone);
  // The promise "reads never write": a read-only server's mark creates nothing.
  CHECK(!std::filesystem::exists(tmp / ".folio/serving-read-only"));
}

TEST_CASE("MimeSniffer: adoption asks it only when the extension says nothing") {
  RepoFixture f;
  const std::string pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n";
  folio::testing::WriteFile(f.dir / "demo/main/scan", pdf);
  folio::testing::WriteFile(f.dir / "demo/main/scan.txt", pdf);
  folio::testing::WriteFile(f.dir / "demo/main/blob", std::string("\x00\x01\x02\x03", 4));
  f.repo->SetMimeSniffer(MakeLibmagicSniffer());
  auto scan = f.repo->GetObjectByPath("scan");
  REQUIRE(scan.ok());
  CHECK(scan->content->mime_type == "application/pdf");
  auto txt = f.repo->GetObjectByPath("scan.txt");
  REQUIRE(txt.ok());
  CHECK(txt->content->mime_type == "text/plain");  // the name says: the bytes are not asked
  auto blob = f.repo->GetObjectByPath("blob");
  REQUIRE(blob.ok());
  CHECK(blob->content->mime_type == "application/octet-stream");
  f.repo->SetMimeSniffer(nullptr);
  folio::testing::WriteFile(f.dir / "demo/main/scan2", pdf);
  auto scan2 = f.repo->GetObjectByPath("scan2");
  REQUIRE(scan2.ok());
  CHECK(scan2->content->mime_type == "application/octet-stream");
}

TEST_CASE("MIME by content: a batch is sniffed on every core, each file getting its own type") {
  folio::testing::RepoFixture f;
  const std::string pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<<>>\n%%EOF\n";
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89", 33);
  std::filesystem::create_directories(f.dir / "demo/main/mixed");
  for (int i = 0; i < 300; ++i) {
    const std::string bytes = i % 3 == 0 ? pdf : i % 3 == 1 ? png : std::string("\x00\x01\x02\x03", 4);
    folio::testing::WriteFile(f.dir / ("demo/main/mixed/f" + std::to_string(i)), bytes);
  }
  f.repo->SetMimeSniffer(MakeLibmagicSniffer());
  auto folder = f.repo->GetObjectByPath("mixed");
  REQUIRE(folder.ok());
  auto page = f.repo->GetChildren(folder->id, 0, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  REQUIRE(page->objects.size() == 300);
  for (const ObjectData& o : page->objects) {
    CAPTURE(o.name);
    const int i = std::stoi(o.name.substr(1));
    REQUIRE(o.content);
    CHECK(o.content->mime_type == (i % 3 == 0 ? "application/pdf" : i % 3 == 1 ? "image/png" : "application/octet-stream"));
  }
  // The sniffer itself, from many threads at once: every answer right.
  const MimeSniffer sniff = MakeLibmagicSniffer();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 50; ++k) {
        const bool want_pdf = (t + k) % 2 == 0;
        if (sniff(want_pdf ? pdf : png) != (want_pdf ? "application/pdf" : "image/png")) ++wrong;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(wrong.load() == 0);
}

InspectTree Build(InspectFixture& fx, const std::string& selection, InspectLimits limits = {}) {
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", selection, limits);
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  return std::move(*tree);
}

TEST_CASE("Inspect --depth: levels below the selection; the rest counted, not read") {
  InspectFixture fx;
  CHECK(RenderInspectText(Build(fx, "", {.max_depth = 2})) ==
        "DATA\n"
        "└── demo  domain · test domain · no users (anonymous access)\n"
        "    └── main  repository · variant B\n"
        "        └── … 3 not shown (--depth)\n");
  CHECK(RenderInspectText(Build(fx, "", {.max_depth = 0})) == "DATA\n└── … 1 not shown (--depth)\n");
  CHECK(RenderInspectText(Build(fx, "demo/main", {.max_depth = 1})) ==
        "demo/main  repository · variant B\n"
        "├── docs/\n"
        "│   └── … 2 not shown (--depth)\n"
        "├── contact  item\n"
        "├── readme.md  5 B · text/plain · 1.0 (latest)\n"
        "└── (relationships)\n"
        "    └── refers  /readme.md → /docs/a.txt\n");
  Json j = InspectToJson(Build(fx, "demo/main", {.max_depth = 1}));
  CHECK(j["root"]["hidden"].is_null());
  CHECK(j["root"]["children"][0]["hidden"] == 2);
  CHECK(j["root"]["children"][0]["children"].empty());
}

TEST_CASE(
    "Inspect: a document's history as a table, newest first, with the "
    "check-out") {
  InspectFixture fx;
  const InspectTree tree = Build(fx, "demo/main/docs/b.txt");
  const std::string text = RenderInspectText(tree);
  const std::string s = fx.b.series_id;
  CHECK(text ==
        "demo/main/docs/b.txt  1 B · text/plain · 1.0 (latest)\n"
        "  checked out by bob since 2024-03-01T10:00:00Z · working copy 7 B\n"
        "  LABEL  MODIFIED              BY     SIZE  COMMENT               ID\n"
        "  pwc    2024-03-01T10:00:00Z  bob    7 B   (checked out by bob)  " +
            s +
            ";pwc\n"
            "  1.0    2024-03-01T10:00:00Z  alice  1 B                         " +
            s + ";1.0\n");
  // --history: under every document of a tree.
  const std::string all = RenderInspectText(Build(fx, "demo/main/docs"), TextOptions{.history = true});
  CHECK(Contains(all, "│     2.0    2024-03-01T10:00:00Z  carol  4 B   approved      " + fx.a.series_id + ";2.0\n"));
}

TEST_CASE("Inspect: a damaged record shows in place; the rest of the tree is shown") {
  InspectFixture fx;
  folio::testing::WriteFile(fx.f.dir / "demo/main/docs/.folio/docs/a.txt/series.json", "{ not json");
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  const InspectNode& docs = tree->root.children[0];
  REQUIRE(docs.name == "docs");
  REQUIRE(docs.children.size() == 2);
  // The engine names what it left out of the listing: shown in place, under its name.
  CHECK(docs.children[0].kind == NodeKind::kDamaged);
  CHECK(docs.children[0].name == "a.txt");
  CHECK(Contains(docs.children[0].damage, "a.txt"));
  CHECK(docs.children[1].name == "b.txt");
  const std::string text = RenderInspectText(*tree);
  CHECK(Contains(text, "├── a.txt  DAMAGED: "));
  CHECK(Contains(text, "readme.md"));
  Json j = InspectToJson(*tree);
  CHECK(j["root"]["children"][0]["children"][0]["kind"] == "damaged");
  CHECK(j["root"]["children"][0]["children"][1]["damage"].is_null());
}

// Every node of the JSON, depth first.
void Walk(const Json& node, std::vector<const Json*>& out) {
  out.push_back(&node);
  for (const char* key : {"children", "relationships"}) {
    if (node.contains(key)) {
      for (const Json& c : node[key]) Walk(c, out);
    }
  }
}

TEST_CASE(
    "Inspect --json: every node names its domain, repository and path "
    "(as jq would select them)") {
  InspectFixture fx;
  Json j = Json::parse(RenderInspectJson(Build(fx, "")));
  CHECK(j["format"] == 1);
  std::vector<const Json*> nodes;
  Walk(j["root"], nodes);
  REQUIRE(nodes.size() == 9);  // data, domain, repository, docs, a, b, contact, readme, refers
  for (const Json* n : nodes) {
    for (const char* key : {"kind", "name", "domain", "repository", "path", "damage", "hidden"}) {
      CHECK_MESSAGE(n->contains(key), n->dump());
    }
    const std::string kind = (*n)["kind"];
    if (kind == "data") {
      CHECK((*n)["domain"].is_null());
      continue;
    }
    CHECK((*n)["domain"] == "demo");
    if (kind == "domain") {
      CHECK((*n)["repository"].is_null());
      CHECK((*n)["path"].is_null());
      continue;
    }
    CHECK((*n)["repository"] == "main");
    CHECK((*n)["path"].is_string());
  }
  // jq '.. | objects | select(.kind == "document") |
  // "\(.domain)/\(.repository)\(.path)"'
  std::vector<std::string> documents;
  for (const Json* n : nodes) {
    if ((*n)["kind"] == "document") {
      documents.push_back((*n)["domain"].get<std::string>() + "/" + (*n)["repository"].get<std::string>() +
                          (*n)["path"].get<std::string>());
    }
  }
  CHECK(documents == std::vector<std::string>{"demo/main/docs/a.txt", "demo/main/docs/b.txt", "demo/main/readme.md"});
  CHECK((*nodes[2])["path"] == "/");  // the repository is its root folder
  CHECK((*nodes[3])["acl"].is_array());
}

}  // namespace
}  // namespace folio::cli
