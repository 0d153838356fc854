// The folio inspect tree (src/cli/inspect_model.cc) over a real data directory.
#include "cli/inspect_model.h"

#include <doctest/doctest.h>

#include "cli/inspect_fixture.h"

using namespace folio;
using namespace folio::cli;
using folio::testing::Contains;
using folio::testing::InspectFixture;
using folio::testing::kInspectTime;

namespace {

const InspectNode& Child(const InspectNode& n, const std::string& name) {
  for (const InspectNode& c : n.children) {
    if (c.name == name) return c;
  }
  FAIL("no child '" << name << "' under '" << n.name << "'");
  return n;
}

std::vector<std::string> Names(const std::vector<InspectNode>& nodes) {
  std::vector<std::string> out;
  for (const InspectNode& n : nodes) out.push_back(n.name);
  return out;
}

}  // namespace

TEST_CASE("InspectModel: the whole data directory: domains, repositories, objects in order") {
  InspectFixture fx;
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  CHECK(tree->selection == "");
  CHECK(tree->data_dir == "DATA");
  const InspectNode& root = tree->root;
  CHECK(root.kind == NodeKind::kDataDir);
  CHECK(root.name == "DATA");
  REQUIRE(root.children.size() == 1);
  const InspectNode& domain = root.children[0];
  CHECK(domain.kind == NodeKind::kDomain);
  CHECK(domain.name == "demo");
  CHECK(domain.description == "test domain");
  CHECK(domain.created_ms == kInspectTime);
  REQUIRE(domain.children.size() == 1);
  const InspectNode& repo = domain.children[0];
  CHECK(repo.kind == NodeKind::kRepository);
  CHECK(repo.name == "main");
  CHECK(repo.variant == "B");
  CHECK(repo.id == fx.f.root);
  // Folders first, then documents and items by name.
  CHECK(Names(repo.children) == std::vector<std::string>{"docs", "contact", "readme.md"});
  CHECK(Child(repo, "contact").kind == NodeKind::kItem);
  CHECK(Child(repo, "contact").type_id == "cmis:item");
  const InspectNode& docs = Child(repo, "docs");
  CHECK(docs.kind == NodeKind::kFolder);
  CHECK(docs.path == "/docs");
  CHECK(docs.id == fx.docs.id);
  CHECK(Names(docs.children) == std::vector<std::string>{"a.txt", "b.txt"});
}

TEST_CASE("InspectModel: a document's versions oldest first, with latest and latest major") {
  InspectFixture fx;
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main/docs/a.txt");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  const InspectNode& a = tree->root;
  CHECK(a.kind == NodeKind::kDocument);
  CHECK(a.id == fx.a.series_id);
  CHECK(a.path == "/docs/a.txt");
  CHECK(a.versionable);
  REQUIRE(a.content.has_value());
  CHECK(a.content->length == 4);
  CHECK(a.content->mime_type == "text/plain");
  REQUIRE(a.versions.size() == 4);
  std::vector<std::string> labels;
  for (const VersionSummary& v : a.versions) labels.push_back(v.label);
  CHECK(labels == std::vector<std::string>{"1.0", "1.1", "2.0", "2.1"});
  CHECK(a.versions[3].latest);
  CHECK_FALSE(a.versions[3].latest_major);
  CHECK(a.versions[2].latest_major);
  CHECK(a.versions[2].major);
  CHECK_FALSE(a.versions[1].major);
  CHECK(a.versions[2].comment == "approved");
  CHECK(a.versions[2].modified_by == "carol");
  CHECK(a.versions[1].content->length == 4);  // "v1.1"
  CHECK(a.versions[0].content->length == 2);  // "v1"
  CHECK(a.versions[0].id == fx.a.series_id + ";1.0");
  CHECK_FALSE(a.checked_out.has_value());
}

TEST_CASE("InspectModel: a checked-out series shows who holds it, since when, and the working copy") {
  InspectFixture fx;
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main/docs");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  const InspectNode& b = Child(tree->root, "b.txt");
  REQUIRE(b.checked_out.has_value());
  CHECK(b.checked_out->by == "bob");
  CHECK(b.checked_out->since_ms == kInspectTime);
  CHECK(b.checked_out->working_copy_id == fx.b.series_id + ";pwc");
  REQUIRE(b.checked_out->content.has_value());
  CHECK(b.checked_out->content->length == 7);  // "draft b"
  // The working copy is not a version: the history is still 1.0 with its content.
  REQUIRE(b.versions.size() == 1);
  CHECK(b.versions[0].label == "1.0");
  CHECK(b.content->length == 1);
}

TEST_CASE("InspectModel: a document created checked out has no version yet") {
  InspectFixture fx;
  NewObject o;
  o.name = "new.txt";
  auto pwc =
      fx.f.repo->CreateDocument(fx.f.root, o, ContentSource::FromBytes("x"), VersioningState::kCheckedOut, "dave",
                                WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  const InspectNode& n = Child(tree->root, "new.txt");
  CHECK(n.versions.empty());
  CHECK_FALSE(n.content.has_value());
  REQUIRE(n.checked_out.has_value());
  CHECK(n.checked_out->by == "dave");
}

TEST_CASE("InspectModel: relationships of a repository with the paths of their ends") {
  InspectFixture fx;
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  REQUIRE(tree->root.relationships.size() == 1);
  const InspectNode& r = tree->root.relationships[0];
  CHECK(r.kind == NodeKind::kRelationship);
  CHECK(r.name == "refers");
  CHECK(r.id == fx.refers.id);
  CHECK(r.source_id == fx.readme.series_id);
  CHECK(r.source_path == "/readme.md");
  CHECK(r.target_path == "/docs/a.txt");
}

TEST_CASE("InspectModel: custom types and properties; datetimes as ISO text") {
  InspectFixture fx;
  Json def = {
      {"id", "acme:contract"},
      {"parentId", "cmis:document"},
      {"propertyDefinitions",
       {{"acme:client", {{"propertyType", "string"}, {"cardinality", "single"}, {"updatability", "readwrite"}}},
        {"acme:signed", {{"propertyType", "datetime"}, {"cardinality", "single"}, {"updatability", "readwrite"}}}}}};
  REQUIRE(fx.f.repo->CreateType(def, WriteCheck::Trusted()).ok());
  NewObject o;
  o.name = "c.pdf";
  o.type_id = "acme:contract";
  o.properties = Json{{"acme:client", "NASA"}, {"acme:signed", "2024-03-01T10:00:00Z"}};
  REQUIRE(fx.f.repo->CreateDocument(fx.f.root, o, std::nullopt, VersioningState::kMajor, "alice",
                                    WriteCheck::Trusted()).ok());
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main/c.pdf");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  CHECK(tree->root.type_id == "acme:contract");
  CHECK(tree->root.custom_properties["acme:client"] == "NASA");
  CHECK(tree->root.custom_properties["acme:signed"] == "2024-03-01T10:00:00.000Z");
  CHECK_FALSE(tree->root.content.has_value());
}

TEST_CASE("InspectModel: secondary types and their properties; datetimes as ISO text") {
  InspectFixture fx;
  Json def = {{"id", "acme:reviewed"},
              {"parentId", "cmis:secondary"},
              {"propertyDefinitions", {{"acme:on", {{"propertyType", "datetime"}}}}}};
  REQUIRE(fx.f.repo->CreateType(def, WriteCheck::Trusted()).ok());
  NewObject o;
  o.name = "r.txt";
  o.properties = Json{{"cmis:secondaryObjectTypeIds", Json::array({"acme:reviewed"})},
                      {"acme:on", "2024-03-01T10:00:00Z"}};
  REQUIRE(fx.f.repo->CreateDocument(fx.f.root, o, std::nullopt, VersioningState::kMajor, "alice",
                                    WriteCheck::Trusted()).ok());
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main/r.txt");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  CHECK(tree->root.custom_properties["cmis:secondaryObjectTypeIds"] == Json::array({"acme:reviewed"}));
  CHECK(tree->root.custom_properties["acme:on"] == "2024-03-01T10:00:00.000Z");
}

TEST_CASE("InspectModel: PATH selects a domain, a repository, a folder, a document or an item") {
  InspectFixture fx;
  auto store = fx.ReadOnlyStore();
  struct Case {
    std::string path;
    std::string selection;
    NodeKind kind;
    std::string name;
  };
  for (const Case& c :
       {Case{"demo", "demo", NodeKind::kDomain, "demo"}, Case{"demo/main", "demo/main", NodeKind::kRepository, "main"},
        Case{"/demo//main/docs/", "demo/main/docs", NodeKind::kFolder, "docs"},
        Case{"demo/main/docs/b.txt", "demo/main/docs/b.txt", NodeKind::kDocument, "b.txt"},
        Case{"demo/main/contact", "demo/main/contact", NodeKind::kItem, "contact"},
        Case{"/", "", NodeKind::kDataDir, "DATA"}}) {
    CAPTURE(c.path);
    auto tree = BuildInspectTree(*store, "DATA", c.path);
    REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
    CHECK(tree->selection == c.selection);
    CHECK(tree->root.kind == c.kind);
    CHECK(tree->root.name == c.name);
  }
}

TEST_CASE("InspectModel: a PATH that does not exist is objectNotFound naming it") {
  InspectFixture fx;
  auto store = fx.ReadOnlyStore();
  struct Case {
    std::string path;
    std::string named;
  };
  for (const Case& c :
       {Case{"nodomain", "nodomain"}, Case{"demo/norepo", "norepo"}, Case{"demo/main/docs/missing", "/docs/missing"},
        Case{"demo/main/nofolder/a.txt", "nofolder"}, Case{"a-b", "a-b"}}) {
    CAPTURE(c.path);
    auto tree = BuildInspectTree(*store, "DATA", c.path);
    REQUIRE_FALSE(tree.ok());
    CHECK(tree.status().kind() == ErrorKind::kObjectNotFound);
    CHECK(Contains(tree.status().message(), c.named));
  }
}

TEST_CASE("InspectModel: every child of a folder larger than one page, in name order") {
  InspectFixture fx;
  ObjectData big = fx.f.Folder(fx.f.root, "big");
  std::vector<std::string> expected;
  for (int i = 0; i < 130; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "n%03d.txt", i);
    fx.f.Doc(big.id, name, "x");
    expected.push_back(name);
  }
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo/main/big");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  CHECK(Names(tree->root.children) == expected);
}
