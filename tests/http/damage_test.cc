// The promise "a damaged record spoils only its own object" (docs/STORAGE.md §10):
// children, descendants, folderTree, checkedOut, query and contentChanges leave out an
// object whose record cannot be read (a document's version record, a folder's
// folder.json), answer the rest, and the query index takes the object in again once its
// record is restored (within the contract's 2 seconds for changes made by hand).
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "http/server_fixture.h"
#include "http/versioning_support.h"

namespace folio::testing {
namespace {

httplib::Result PostJson(httplib::Client& c, const std::string& path, const Json& body) {
  return c.Post(path.c_str(), body.dump(), "application/json");
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string IdOf(const httplib::Result& r, const Var& v) {
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  return Get(Flat(BodyJson(r)), v.Id("objectId"));
}

// The names in an answer's objects (children, checkedOut: "objects"; query: "results";
// descendants and folderTree: nested "object"/"children").
void CollectNames(const Json& j, const Var& v, std::set<std::string>& out) {
  if (j.is_array()) {
    for (const Json& e : j) CollectNames(e, v, out);
    return;
  }
  if (!j.is_object()) return;
  if (j.contains("succinctProperties") || j.contains("properties")) {
    const Json name = Get(Flat(j), v.Id("name"));
    if (name.is_string()) out.insert(name.get<std::string>());
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "succinctProperties" && it.key() != "properties") CollectNames(*it, v, out);
  }
}

std::set<std::string> Names(httplib::Client& c, const Var& v, const std::string& url) {
  auto r = c.Get(url.c_str());
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 200, url, ": ", r->body);
  std::set<std::string> out;
  CollectNames(BodyJson(r), v, out);
  return out;
}

std::string Query(const Var& v, const std::string& statement) {
  return v.Url() + "?cmisselector=query&q=" + httplib::detail::encode_query_param(statement);
}

}  // namespace

TEST_CASE("Damage: a damaged record spoils only its object in every listing, and the query index catches up") {
  ServerFixture f;
  auto c = f.Client();
  const Var& v = kVarA;
  const std::string repo_dir = f.dir() + "/demo/alpha";
  const std::string docs = Get(Flat(GetJson(c, v.Url() + "/docs?cmisselector=object")), "objectId");
  auto create = [&](const std::string& folder, const std::string& name) {
    return IdOf(PostJson(c, v.Url(), {{"operation", "createDocument"}, {"objectId", folder}, {"content", "text " + name},
                                      {"properties", {{"name", name}, {"objectTypeId", "document"}}}}),
                v);
  };
  for (const char* name : {"d1.txt", "d2.txt", "d3.txt"}) create(docs, name);
  const std::string sub =
      IdOf(PostJson(c, v.Url(), {{"operation", "createFolder"}, {"objectId", docs},
                                 {"properties", {{"name", "sub"}, {"objectTypeId", "folder"}}}}),
           v);
  for (const char* name : {"s1.txt", "s2.txt", "s3.txt"}) create(sub, name);
  // One working copy beside the damage, one below it.
  for (const std::string path : {"/docs/d2.txt", "/docs/sub/s1.txt"}) {
    auto out = PostJson(c, v.Url() + path, {{"operation", "checkOut"}});
    REQUIRE(out);
    REQUIRE_MESSAGE(out->status == 201, out->body);
  }

  // The damage: a document's version record and a folder's record no longer parse.
  const std::string doc_record = repo_dir + "/docs/.folio/docs/d1.txt/1.0.json";
  const std::string folder_record = repo_dir + "/docs/sub/.folio/folder.json";
  const std::string doc_bytes = ReadDiskFile(doc_record), folder_bytes = ReadDiskFile(folder_record);
  WriteFile(doc_record, "{\"label\": \"1.0\", garbage");
  WriteFile(folder_record, "not json at all");

  const std::set<std::string> rest = {"readme.txt", "d2.txt", "d3.txt"};
  CHECK(Names(c, v, v.Url() + "/docs?cmisselector=children") == std::set<std::string>{"readme.txt", "d2.txt", "d3.txt"});
  for (const char* selector : {"descendants", "folderTree"}) {
    CAPTURE(selector);
    const auto names = Names(c, v, v.Url() + "?cmisselector=" + std::string(selector));
    CHECK(names.count("docs") == 1);
    CHECK(names.count("d1.txt") == 0);
    CHECK(names.count("sub") == 0);
    if (std::string(selector) == "descendants") {
      for (const std::string& n : rest) CHECK(names.count(n) == 1);
    }
  }
  CHECK(Names(c, v, v.Url() + "?cmisselector=checkedOut") == std::set<std::string>{"d2.txt"});
  // The index is built now, with the damage: it finds the rest.
  CHECK(Names(c, v, Query(v, "SELECT cmis:name FROM cmis:document")) == rest);
  // The change log from its start, with each object as it is now: the damaged ones as
  // their events tell them.
  const auto changed = Names(c, v, v.Url() + "?cmisselector=contentChanges&includeProperties=true&changeLogToken=1");
  for (const std::string& n : rest) CHECK(changed.count(n) == 1);

  // Restored: the query index catches up within the contract's 2 seconds.
  WriteFile(doc_record, doc_bytes);
  WriteFile(folder_record, folder_bytes);
  const std::set<std::string> all = {"readme.txt", "d1.txt", "d2.txt", "d3.txt", "s1.txt", "s2.txt", "s3.txt"};
  const auto restored = std::chrono::steady_clock::now();
  std::set<std::string> found;
  while (std::chrono::steady_clock::now() - restored < std::chrono::seconds(2)) {
    found = Names(c, v, Query(v, "SELECT cmis:name FROM cmis:document"));
    if (found == all) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(found == all);
  CHECK(Names(c, v, v.Url() + "?cmisselector=checkedOut") == std::set<std::string>{"d2.txt", "s1.txt"});
}

}  // namespace folio::testing
