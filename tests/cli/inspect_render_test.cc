// Text and JSON forms of the folio inspect tree (src/cli/inspect_render.cc).
#include "cli/inspect_render.h"

#include <doctest/doctest.h>

#include "cli/inspect_fixture.h"
#include "cli/inspect_model.h"

using namespace folio;
using namespace folio::cli;
using folio::testing::Contains;
using folio::testing::InspectFixture;

namespace {

InspectTree Build(InspectFixture& fx, const std::string& selection) {
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", selection);
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  return std::move(*tree);
}

InspectNode Document(std::vector<std::pair<std::string, bool>> labels_major, bool versionable = true) {
  InspectNode n;
  n.kind = NodeKind::kDocument;
  n.versionable = versionable;
  std::string latest_major;
  for (const auto& [label, major] : labels_major) {
    if (major) latest_major = label;
  }
  for (const auto& [label, major] : labels_major) {
    VersionSummary v;
    v.label = label;
    v.major = major;
    v.latest = label == labels_major.back().first;
    v.latest_major = label == latest_major;
    n.versions.push_back(v);
  }
  return n;
}

}  // namespace

TEST_CASE("InspectRender: HumanSize") {
  struct Case {
    uint64_t bytes;
    const char* text;
  };
  for (const Case& c :
       {Case{0, "0 B"}, Case{1, "1 B"}, Case{1023, "1023 B"}, Case{1024, "1.0 KiB"}, Case{1234, "1.2 KiB"},
        Case{1048575, "1.0 MiB"}, Case{5ull << 20, "5.0 MiB"}, Case{3ull << 30, "3.0 GiB"}}) {
    CAPTURE(c.bytes);
    CHECK(HumanSize(c.bytes) == c.text);
  }
}

TEST_CASE("InspectRender: VersionHistory newest first, marking latest and latest major") {
  CHECK(VersionHistory(Document({{"1.0", true}, {"1.1", false}, {"2.0", true}, {"2.1", false}})) ==
        "2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0");
  CHECK(VersionHistory(Document({{"1.0", true}, {"2.0", true}})) == "2.0 (latest) · 1.0");
  CHECK(VersionHistory(Document({{"0.1", false}, {"0.2", false}})) == "0.2 (latest) · 0.1");
  CHECK(VersionHistory(Document({})) == "no version yet");
  CHECK(VersionHistory(Document({{"1.0", true}}, false)) == "unversioned");
}

TEST_CASE("InspectRender: text of a small repository, line by line, without ids") {
  InspectFixture fx;
  const std::string text = RenderInspectText(Build(fx, ""));
  const std::string expected =
      "DATA\n"
      "└── demo  domain · test domain · no users (anonymous access)\n"
      "    └── main  repository · variant B\n"
      "        ├── docs/\n"
      "        │   ├── a.txt  4 B · text/plain · 2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0\n"
      "        │   └── b.txt  1 B · text/plain · 1.0 (latest)\n"
      "        │         checked out by bob since 2024-03-01T10:00:00Z · working copy 7 B\n"
      "        ├── contact  item\n"
      "        ├── readme.md  5 B · text/plain · 1.0 (latest)\n"
      "        └── (relationships)\n"
      "            └── refers  /readme.md → /docs/a.txt\n";
  CHECK(text == expected);
  for (const std::string& id : {fx.f.root, fx.docs.id, fx.a.series_id, fx.b.series_id, fx.contact.id, fx.refers.id}) {
    CHECK_FALSE(Contains(text, id));
  }
}

TEST_CASE("InspectRender: text of a selection starts with its path") {
  InspectFixture fx;
  CHECK(RenderInspectText(Build(fx, "demo/main/docs")) ==
        "demo/main/docs/\n"
        "├── a.txt  4 B · text/plain · 2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0\n"
        "└── b.txt  1 B · text/plain · 1.0 (latest)\n"
        "      checked out by bob since 2024-03-01T10:00:00Z · working copy 7 B\n");
  // A document: its history as a table too.
  CHECK(RenderInspectText(Build(fx, "demo/main/readme.md")) ==
        "demo/main/readme.md  5 B · text/plain · 1.0 (latest)\n"
        "  LABEL  MODIFIED              BY     SIZE  COMMENT  ID\n"
        "  1.0    2024-03-01T10:00:00Z  alice  5 B            " + fx.readme.series_id + ";1.0\n");
  const std::string domain = RenderInspectText(Build(fx, "demo"));
  CHECK(domain.rfind("demo  domain · test domain · no users (anonymous access)\n└── main  repository · variant B\n",
                     0) == 0);
}

TEST_CASE("InspectRender: text shows custom types and properties, items and folders of custom types") {
  InspectFixture fx;
  Json def = {
      {"id", "acme:report"},
      {"parentId", "cmis:document"},
      {"propertyDefinitions",
       {{"acme:quarter", {{"propertyType", "string"}, {"cardinality", "single"}, {"updatability", "readwrite"}}}}}};
  REQUIRE(fx.f.repo->CreateType(def, WriteCheck::Trusted()).ok());
  NewObject o;
  o.name = "q1.pdf";
  o.type_id = "acme:report";
  o.properties = Json{{"acme:quarter", "2026-Q1"}};
  auto q1 = fx.f.repo->CreateDocument(fx.docs.id, o, ContentSource::FromBytes(std::string(1536, 'x')),
                                      VersioningState::kMajor, "alice", WriteCheck::Trusted());
  REQUIRE(q1.ok());
  const std::string text = RenderInspectText(Build(fx, "demo/main/docs/q1.pdf"));
  CHECK(text ==
        "demo/main/docs/q1.pdf  1.5 KiB · application/pdf · 1.0 (latest) · type acme:report\n"
        "  acme:quarter: 2026-Q1\n"
        "  LABEL  MODIFIED              BY     SIZE     COMMENT  ID\n"
        "  1.0    2024-03-01T10:00:00Z  alice  1.5 KiB           " + q1->series_id + ";1.0\n");
}

TEST_CASE("InspectRender: JSON holds the same tree, with ids and full dates") {
  InspectFixture fx;
  const std::string text = RenderInspectJson(Build(fx, ""));
  REQUIRE(text.back() == '\n');
  Json j = Json::parse(text);
  CHECK(j["dataDirectory"] == "DATA");
  CHECK(j["selection"] == "");
  const Json& root = j["root"];
  CHECK(root["kind"] == "data");
  REQUIRE(root["children"].size() == 1);
  const Json& domain = root["children"][0];
  CHECK(domain["kind"] == "domain");
  CHECK(domain["name"] == "demo");
  CHECK(domain["description"] == "test domain");
  CHECK(domain["created"] == "2024-03-01T10:00:00.000Z");
  const Json& repo = domain["children"][0];
  CHECK(repo["kind"] == "repository");
  CHECK(repo["variant"] == "B");
  CHECK(repo["rootFolderId"] == fx.f.root);
  REQUIRE(repo["children"].size() == 3);
  const Json& docs = repo["children"][0];
  CHECK(docs["kind"] == "folder");
  CHECK(docs["id"] == fx.docs.id);
  CHECK(docs["path"] == "/docs");
  const Json& a = docs["children"][0];
  CHECK(a["kind"] == "document");
  CHECK(a["id"] == fx.a.series_id);
  CHECK(a["size"] == 4);
  CHECK(a["mimeType"] == "text/plain");
  REQUIRE(a["versions"].size() == 4);
  CHECK(a["versions"][0]["label"] == "1.0");
  CHECK(a["versions"][2]["latestMajor"] == true);
  CHECK(a["versions"][2]["comment"] == "approved");
  CHECK(a["versions"][3]["latest"] == true);
  CHECK(a["versions"][3]["id"] == fx.a.series_id + ";2.1");
  CHECK(a["checkedOut"].is_null());
  const Json& b = docs["children"][1];
  CHECK(b["checkedOut"]["by"] == "bob");
  CHECK(b["checkedOut"]["since"] == "2024-03-01T10:00:00.000Z");
  CHECK(b["checkedOut"]["workingCopyId"] == fx.b.series_id + ";pwc");
  CHECK(b["checkedOut"]["size"] == 7);
  CHECK(repo["children"][1]["kind"] == "item");
  CHECK(repo["children"][1]["id"] == fx.contact.id);
  REQUIRE(repo["relationships"].size() == 1);
  const Json& rel = repo["relationships"][0];
  CHECK(rel["name"] == "refers");
  CHECK(rel["source"]["path"] == "/readme.md");
  CHECK(rel["target"]["id"] == fx.a.series_id);
}

TEST_CASE("InspectRender: JSON of a selection names it") {
  InspectFixture fx;
  Json j = Json::parse(RenderInspectJson(Build(fx, "demo/main/docs")));
  CHECK(j["selection"] == "demo/main/docs");
  CHECK(j["root"]["kind"] == "folder");
  CHECK(j["root"]["children"].size() == 2);
}

TEST_CASE("InspectRender: control characters in names do not break the tree's lines") {
  InspectFixture fx;
  fx.f.Doc(fx.docs.id, "two\nlines.txt", "x");
  const std::string text = RenderInspectText(Build(fx, "demo/main/docs"));
  CHECK(Contains(text, "── two?lines.txt  1 B"));
}
