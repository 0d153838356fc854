// Engine operations over a real data directory (PosixFs in a temp dir) and, for most,
// over the same repository in memory (MemFs).
#include <doctest/doctest.h>

#include <set>

#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::MemRepoFixture;
using folio::testing::RepoFixture;

TEST_CASE_TEMPLATE("Repository: a new repository has a root folder with an id and path /", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  auto root = f.repo->GetObject(f.root);
  REQUIRE(root.ok());
  CHECK(root->base == BaseType::kFolder);
  CHECK(root->properties["cmis:path"] == "/");
  CHECK(root->properties["cmis:parentId"].is_null());
  auto by_path = f.repo->GetObjectByPath("");
  REQUIRE(by_path.ok());
  CHECK(by_path->id == f.root);
}

TEST_CASE_TEMPLATE("Repository: creates folders and documents a person can see with ls and cat", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData docs = f.Folder(f.root, "docs");
  ObjectData doc = f.Doc(docs.id, "hello.txt", "hello world");
  CHECK(f.fs().Stat("demo/main/docs")->type == FileType::kDirectory);
  CHECK(f.Visible("docs/hello.txt") == "hello world");
  CHECK(doc.properties["cmis:versionLabel"] == "1.0");
  CHECK(doc.properties["cmis:contentStreamLength"] == 11);
  CHECK(doc.properties["cmis:contentStreamMimeType"] == "text/plain");
  CHECK(doc.properties["cmis:createdBy"] == "alice");
  CHECK(doc.parent_id == docs.id);
  CHECK(f.Content(doc.id) == "hello world");

  auto by_path = f.repo->GetObjectByPath("docs/hello.txt");
  REQUIRE(by_path.ok());
  CHECK(by_path->id == doc.id);
  auto by_series = f.repo->GetObject(doc.series_id);
  REQUIRE(by_series.ok());
  CHECK(by_series->id == doc.id);
  auto folder = f.repo->GetObjectByPath("docs");
  REQUIRE(folder.ok());
  CHECK(folder->properties["cmis:path"] == "/docs");
  CHECK(folder->properties["cmis:parentId"] == f.root);
}

TEST_CASE_TEMPLATE("Repository: names are validated and unique within a folder", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  f.Folder(f.root, "a");
  for (std::string bad : {std::string(""), std::string("."), std::string(".."), std::string("x/y"),
                          std::string("nul\0x", 5), std::string(256, 'n'), std::string(".folio"),
                          std::string(".FOLIO-tmp-1"), std::string("\xff\xfe")}) {
    CAPTURE(bad);
    NewObject o;
    o.name = bad;
    auto r = f.repo->CreateFolder(f.root, o, "alice", WriteCheck::Trusted());
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().kind() == ErrorKind::kNameConstraintViolation);
  }
  NewObject dup;
  dup.name = "a";
  auto r = f.repo->CreateDocument(f.root, dup, std::nullopt, VersioningState::kMajor, "alice", WriteCheck::Trusted());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().kind() == ErrorKind::kNameConstraintViolation);
  CHECK(Contains(r.status().message(), "'a'"));
  NewObject longest;
  longest.name = std::string(255, 'n');
  CHECK(f.repo->CreateFolder(f.root, longest, "alice", WriteCheck::Trusted()).ok());
}

TEST_CASE_TEMPLATE("Repository: unknown ids and paths are objectNotFound naming them", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  for (std::string id : {"fnothere", "d123;1.0", "../../etc", "", "a b", "d1;pwc"}) {
    auto r = f.repo->GetObject(id);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().kind() == ErrorKind::kObjectNotFound);
  }
  auto p = f.repo->GetObjectByPath("missing/file.txt");
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(Contains(p.status().message(), "/missing/file.txt"));
  for (const char* hostile : {"..", "../x", ".folio", ".folio/repository.json", "a/../../x"}) {
    auto h = f.repo->GetObjectByPath(hostile);
    REQUIRE_FALSE(h.ok());
    CHECK(h.status().kind() == ErrorKind::kObjectNotFound);
  }
}

TEST_CASE_TEMPLATE("Repository: a symlink pointing outside the data directory is never followed", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  folio::testing::TempDir outside;
  folio::testing::WriteFile(outside / "secret.txt", "secret");
  f.Symlink("escape", outside.path());
  f.Symlink("secret.txt", outside / "secret.txt");
  CHECK(f.repo->GetObjectByPath("escape/secret.txt").status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObjectByPath("secret.txt").status().kind() == ErrorKind::kObjectNotFound);
  auto page = f.repo->GetChildren(f.root, 0, 100);
  REQUIRE(page.ok());
  CHECK(page->total == 0);
}

TEST_CASE_TEMPLATE("Repository: by path, a document file replaced by a symlink after a read is not found", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData docs = f.Folder(f.root, "docs");
  ObjectData doc = f.Doc(docs.id, "hello.txt", "hello world");
  // Twice: the second read takes the remembered path (identity of the visible file).
  REQUIRE(f.repo->GetObjectByPath("docs/hello.txt").ok());
  auto again = f.repo->GetObjectByPath("docs/hello.txt");
  REQUIRE(again.ok());
  CHECK(again->id == doc.id);
  folio::testing::TempDir outside;
  folio::testing::WriteFile(outside / "hello.txt", "secret");
  REQUIRE(f.fs().Remove("demo/main/docs/hello.txt").ok());
  f.Symlink("docs/hello.txt", outside / "hello.txt");
  auto through = f.repo->GetObjectByPath("docs/hello.txt");
  CHECK(through.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(Contains(through.status().message(), "docs/hello.txt"));
  REQUIRE(f.fs().Remove("demo/main/docs/hello.txt").ok());
  CHECK(f.repo->GetObjectByPath("docs/hello.txt").status().kind() == ErrorKind::kObjectNotFound);
}

TEST_CASE_TEMPLATE("Repository: children come in name order with paging", F, RepoFixture, MemRepoFixture) {
  F f;
  for (const char* n : {"c.txt", "a.txt", "b.txt", "e.txt", "d.txt"}) f.Doc(f.root, n, n);
  f.Folder(f.root, "0-folder");
  auto p1 = f.repo->GetChildren(f.root, 0, 2);
  REQUIRE(p1.ok());
  CHECK(p1->total == 6);
  REQUIRE(p1->objects.size() == 2);
  CHECK(p1->objects[0].name == "0-folder");
  CHECK(p1->objects[1].name == "a.txt");
  CHECK(p1->has_more);
  auto p3 = f.repo->GetChildren(f.root, 4, 10);
  REQUIRE(p3.ok());
  REQUIRE(p3->objects.size() == 2);
  CHECK(p3->objects[1].name == "e.txt");
  CHECK_FALSE(p3->has_more);
  auto desc = f.repo->GetChildren(f.root, 0, 1, ChildOrder{ChildOrderKey::kName, true});
  REQUIRE(desc.ok());
  CHECK(desc->objects[0].name == "e.txt");
  auto not_folder = f.repo->GetChildren(p3->objects[1].id, 0, 10);
  CHECK(not_folder.status().kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE_TEMPLATE("Repository: update properties renames, keeps the id, and refuses read-only properties", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "old.txt", "x");
  auto r = f.repo->UpdateProperties(doc.id, Json{{"cmis:name", "new.txt"}, {"cmis:description", "d"}}, "bob",
                                    WriteCheck::Trusted());
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  CHECK(r->id == doc.id);
  CHECK(r->name == "new.txt");
  CHECK(r->properties["cmis:description"] == "d");
  CHECK(r->properties["cmis:lastModifiedBy"] == "bob");
  CHECK(r->properties["cmis:versionLabel"] == "1.0");  // rule 5: no new version
  CHECK(f.Has("new.txt"));
  CHECK_FALSE(f.Has("old.txt"));
  CHECK(f.repo->GetObjectByPath("new.txt")->id == doc.id);

  for (const char* ro : {"cmis:versionLabel", "cmis:isLatestVersion", "cmis:createdBy", "cmis:objectId",
                         "cmis:versionSeriesCheckedOutBy"}) {
    auto bad = f.repo->UpdateProperties(doc.id, Json{{ro, "x"}}, "bob", WriteCheck::Trusted());
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(bad.status().message(), ro));
  }
  auto unknown = f.repo->UpdateProperties(doc.id, Json{{"acme:nope", "x"}}, "bob", WriteCheck::Trusted());
  CHECK(unknown.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(unknown.status().message(), "acme:nope"));
  auto same_type = f.repo->UpdateProperties(doc.id, Json{{"cmis:objectTypeId", "cmis:document"}}, "bob",
                                            WriteCheck::Trusted());
  CHECK(same_type.ok());
  auto other_type = f.repo->UpdateProperties(doc.id, Json{{"cmis:objectTypeId", "cmis:folder"}}, "bob",
                                             WriteCheck::Trusted());
  CHECK(other_type.status().kind() == ErrorKind::kConstraint);
}

TEST_CASE_TEMPLATE("Repository: content can be replaced, refused without overwrite, and deleted", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "c.txt", "one");
  auto no = f.repo->SetContent(doc.id, ContentSource::FromBytes("two"), false, "bob", WriteCheck::Trusted());
  CHECK(no.status().kind() == ErrorKind::kContentAlreadyExists);
  auto yes = f.repo->SetContent(doc.id, ContentSource::FromBytes("two!"), true, "bob", WriteCheck::Trusted());
  REQUIRE(yes.ok());
  CHECK(yes->properties["cmis:contentStreamLength"] == 4);
  CHECK(yes->properties["cmis:versionLabel"] == "1.0");
  CHECK(f.Content(doc.id) == "two!");
  CHECK(f.Visible("c.txt") == "two!");
  auto del = f.repo->DeleteContent(doc.id, "bob", WriteCheck::Trusted());
  REQUIRE(del.ok());
  CHECK(del->properties["cmis:contentStreamLength"].is_null());
  CHECK(f.repo->OpenContent(doc.id).status().kind() == ErrorKind::kConstraint);
  CHECK(f.Visible("c.txt").empty());
}

TEST_CASE_TEMPLATE("Repository: uploads are linked into place", F, RepoFixture, MemRepoFixture) {
  F f;
  auto up = f.repo->NewUpload();
  REQUIRE(up.ok());
  REQUIRE((*up)->Write("streamed bytes").ok());
  REQUIRE((*up)->Finish().ok());
  const ContentSource src = (*up)->AsContent("application/octet-stream", "report.pdf");
  NewObject o;
  o.name = "report.pdf";
  auto doc = f.repo->CreateDocument(f.root, o, src, VersioningState::kMajor, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
  CHECK(doc->properties["cmis:contentStreamMimeType"] == "application/pdf");  // derived from the name
  CHECK(f.Content(doc->id) == "streamed bytes");
  // Linked into place (no copy): the upload's own name goes once the change is durable
  // (a checkpoint), not before: a power loss must not keep the removal and lose the link.
  CHECK(Exists(f.fs(), (*up)->path()));
  REQUIRE(f.repo->Checkpoint().ok());
  CHECK_FALSE(Exists(f.fs(), (*up)->path()));
  CHECK(f.Content(doc->id) == "streamed bytes");
}

TEST_CASE_TEMPLATE("Repository: move keeps ids, checks the source and refuses cycles", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData a = f.Folder(f.root, "a");
  ObjectData b = f.Folder(f.root, "b");
  ObjectData sub = f.Folder(a.id, "sub");
  ObjectData doc = f.Doc(sub.id, "d.txt", "data");
  auto wrong_source = f.repo->Move(sub.id, b.id, b.id, "alice", WriteCheck::Trusted());
  CHECK(wrong_source.status().kind() == ErrorKind::kInvalidArgument);
  auto moved = f.repo->Move(sub.id, b.id, a.id, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(moved.ok(), moved.status().ToString());
  CHECK(moved->id == sub.id);
  CHECK(moved->properties["cmis:path"] == "/b/sub");
  // The document below the moved folder is still found by id (stale index path healed).
  auto d = f.repo->GetObject(doc.id);
  REQUIRE_MESSAGE(d.ok(), d.status().ToString());
  CHECK(d->path == "b/sub/d.txt");
  CHECK(f.Content(doc.id) == "data");
  auto into_self = f.repo->Move(b.id, sub.id, "", "alice", WriteCheck::Trusted());
  CHECK(into_self.status().kind() == ErrorKind::kConstraint);
  auto doc_moved = f.repo->Move(doc.id, a.id, "", "alice", WriteCheck::Trusted());
  REQUIRE(doc_moved.ok());
  CHECK(f.Visible("a/d.txt") == "data");
  auto parents = f.repo->GetParents(doc.id);
  REQUIRE(parents.ok());
  REQUIRE(parents->size() == 1);
  CHECK((*parents)[0].id == a.id);
}

TEST_CASE_TEMPLATE("Repository: delete and deleteTree remove objects and their ids", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData a = f.Folder(f.root, "a");
  ObjectData sub = f.Folder(a.id, "sub");
  ObjectData doc = f.Doc(sub.id, "d.txt", "data");
  CHECK(f.repo->Delete(a.id, true, WriteCheck::Trusted()).kind() == ErrorKind::kConstraint);
  CHECK(f.repo->Delete(f.root, true, WriteCheck::Trusted()).kind() == ErrorKind::kConstraint);
  auto failed = f.repo->DeleteTree(a.id, WriteCheck::Trusted());
  REQUIRE(failed.ok());
  CHECK(failed->empty());
  CHECK_FALSE(f.Has("a"));
  for (const std::string& id : {a.id, sub.id, doc.id, doc.series_id}) {
    CHECK(f.repo->GetObject(id).status().kind() == ErrorKind::kObjectNotFound);
  }
  ObjectData e = f.Doc(f.root, "e.txt", "e");
  CHECK(f.repo->Delete(e.id, true, WriteCheck::Trusted()).ok());
  CHECK_FALSE(f.Has("e.txt"));
  CHECK(f.repo->GetObject(e.id).status().kind() == ErrorKind::kObjectNotFound);
}

TEST_CASE_TEMPLATE("Repository: items and relationships", F, RepoFixture, MemRepoFixture) {
  F f;
  NewObject item;
  item.name = "contact";
  auto i = f.repo->CreateItem(f.root, item, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(i.ok(), i.status().ToString());
  CHECK(i->base == BaseType::kItem);
  CHECK(f.repo->GetObjectByPath("contact")->id == i->id);
  ObjectData doc = f.Doc(f.root, "d.txt", "d");
  NewObject rel;
  rel.name = "refers";
  rel.properties = Json{{"cmis:sourceId", doc.id}, {"cmis:targetId", i->id}};
  auto r = f.repo->CreateRelationship(rel, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  CHECK(r->properties["cmis:sourceId"] == doc.id);
  NewObject bad = rel;
  bad.properties["cmis:targetId"] = "fmissing";
  CHECK(f.repo->CreateRelationship(bad, "alice", WriteCheck::Trusted()).status().kind() == ErrorKind::kInvalidArgument);
  auto page = f.repo->GetChildren(f.root, 0, 10);
  REQUIRE(page.ok());
  CHECK(page->total == 2);
  CHECK(f.repo->Delete(r->id, true, WriteCheck::Trusted()).ok());
  CHECK(f.repo->Delete(i->id, true, WriteCheck::Trusted()).ok());
  CHECK(f.repo->GetObject(i->id).status().kind() == ErrorKind::kObjectNotFound);
}

TEST_CASE_TEMPLATE("Repository: GetRelationships by direction; a document's are those of its whole series", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData a = f.Doc(f.root, "a.txt", "a");
  ObjectData b = f.Doc(f.root, "b.txt", "b");
  NewObject folder;
  folder.name = "f";
  auto dir = f.repo->CreateFolder(f.root, folder, "alice", WriteCheck::Trusted());
  REQUIRE(dir.ok());
  auto relate = [&](const std::string& name, const std::string& source, const std::string& target) {
    NewObject rel;
    rel.name = name;
    rel.properties = Json{{"cmis:sourceId", source}, {"cmis:targetId", target}};
    auto r = f.repo->CreateRelationship(rel, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return r->id;
  };
  const std::string a_to_b = relate("a-b", a.id, b.id);  // a's version id 1.0
  const std::string dir_to_a = relate("f-a", dir->id, a.series_id);
  auto ids = [](const Result<std::vector<ObjectData>>& list) {
    REQUIRE_MESSAGE(list.ok(), list.status().ToString());
    std::set<std::string> out;
    for (const ObjectData& o : *list) {
      CHECK(o.base == BaseType::kRelationship);
      out.insert(o.id);
    }
    return out;
  };
  CHECK(ids(f.repo->GetRelationships(a.id, RelationshipDirection::kSource)) == std::set<std::string>{a_to_b});
  CHECK(ids(f.repo->GetRelationships(a.id, RelationshipDirection::kTarget)) == std::set<std::string>{dir_to_a});
  CHECK(ids(f.repo->GetRelationships(a.series_id, RelationshipDirection::kEither)) ==
        std::set<std::string>{a_to_b, dir_to_a});
  CHECK(ids(f.repo->GetRelationships(b.id, RelationshipDirection::kSource)).empty());
  CHECK(ids(f.repo->GetRelationships(dir->id, RelationshipDirection::kEither)) == std::set<std::string>{dir_to_a});
  // A later version of a still has both.
  auto pwc = f.repo->CheckOut(a.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  auto v2 = f.repo->CheckIn(pwc->id, CheckInRequest{}, "alice", WriteCheck::Trusted());
  REQUIRE(v2.ok());
  CHECK(ids(f.repo->GetRelationships(v2->id, RelationshipDirection::kEither)).size() == 2);
  CHECK(f.repo->Delete(dir_to_a, true, WriteCheck::Trusted()).ok());
  CHECK(ids(f.repo->GetRelationships(a.id, RelationshipDirection::kEither)) == std::set<std::string>{a_to_b});
  CHECK(f.repo->GetRelationships("dnosuchseries", RelationshipDirection::kEither).status().kind() ==
        ErrorKind::kObjectNotFound);
}

TEST_CASE_TEMPLATE("Repository: custom types define custom properties", F, RepoFixture, MemRepoFixture) {
  F f;
  Json def = {{"id", "acme:contract"}, {"parentId", "cmis:document"}, {"displayName", "Contract"},
              {"propertyDefinitions",
               {{"acme:amount", {{"propertyType", "decimal"}, {"cardinality", "single"}, {"updatability", "readwrite"}}},
                {"acme:signed", {{"propertyType", "datetime"}, {"cardinality", "single"}, {"updatability", "readwrite"}}},
                {"acme:tags", {{"propertyType", "string"}, {"cardinality", "multi"}, {"updatability", "readwrite"}}}}}};
  auto t = f.repo->CreateType(def, WriteCheck::Trusted());
  REQUIRE_MESSAGE(t.ok(), t.status().ToString());
  CHECK((*t)["propertyDefinitions"].contains("cmis:name"));
  CHECK(f.repo->CreateType(def, WriteCheck::Trusted()).status().kind() == ErrorKind::kContentAlreadyExists);
  NewObject o;
  o.name = "c.pdf";
  o.type_id = "acme:contract";
  o.properties = Json{{"acme:amount", "12.5"}, {"acme:signed", "2024-03-01T10:00:00Z"}, {"acme:tags", "red"}};
  auto doc = f.repo->CreateDocument(f.root, o, std::nullopt, VersioningState::kMajor, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
  CHECK(doc->properties["acme:amount"] == 12.5);
  CHECK(doc->properties["acme:signed"] == 1709287200000);
  CHECK(doc->properties["acme:tags"] == Json::array({"red"}));
  auto bad = f.repo->UpdateProperties(doc->id, Json{{"acme:amount", "lots"}}, "bob", WriteCheck::Trusted());
  CHECK(bad.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(bad.status().message(), "acme:amount"));
  auto children = f.repo->GetTypeChildren("cmis:document");
  REQUIRE(children.ok());
  REQUIRE(children->size() == 1);
  CHECK((*children)[0]["id"] == "acme:contract");
}

TEST_CASE("Store: domains and repositories, ids checked against the contract's patterns") {
  RepoFixture f;
  CHECK(f.store->CreateDomain("ab", "").status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(f.store->CreateDomain("a-b", "").status().message(), "^\\w{3,}$"));
  CHECK(f.store->CreateDomain("demo", "").status().kind() == ErrorKind::kContentAlreadyExists);
  RepositoryInfo info;
  info.repository_id = "main";
  CHECK(f.store->CreateRepository("demo", info).status().kind() == ErrorKind::kContentAlreadyExists);
  info.repository_id = "x_y";
  CHECK(f.store->CreateRepository("demo", info).status().kind() == ErrorKind::kInvalidArgument);
  info.repository_id = "second";
  info.variant = "C";
  CHECK(f.store->CreateRepository("demo", info).status().kind() == ErrorKind::kInvalidArgument);
  info.variant = "A";
  CHECK(f.store->CreateRepository("nodomain", info).status().kind() == ErrorKind::kObjectNotFound);
  REQUIRE(f.store->CreateRepository("demo", info).ok());
  auto repos = f.store->ListRepositories("demo");
  REQUIRE(repos.ok());
  REQUIRE(repos->size() == 2);
  CHECK((*repos)[0].repository_id == "main");
  CHECK((*repos)[1].variant == "A");
  CHECK(f.store->DeleteRepository("demo", "second").ok());
  CHECK(f.store->GetRepository("demo", "second").status().kind() == ErrorKind::kObjectNotFound);
  auto domains = f.store->ListDomains();
  REQUIRE(domains.ok());
  REQUIRE(domains->size() == 1);
  CHECK((*domains)[0].description == "test domain");
}
