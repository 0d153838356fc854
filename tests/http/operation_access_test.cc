// Every operation of the operation table (api/ops/operation_table.h) is checked
// (docs/API.md §11.3): a table-driven test with one entry per operation. Each entry
// makes what it needs (as alice, a domain administrator), then sends the same request
// as a caller without the permission it needs (refused with the entry's error, nothing
// changed, nothing of an unreadable object shown) and as a caller with it (answered).
// An operation added to the table without an entry here fails the first case.
//
// Object permissions are given to bob alone, entry by entry: each entry's objects live
// in a folder of its own that only alice holds entries on, and bob gets on each object
// the entry names the permission below the one needed (none below cmis:read), then the
// one needed.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>

#include "api/operation.h"
#include "api/ops/operation_table.h"
#include "http/auth_fixture.h"

namespace folio::testing {
namespace {

using api::Operation;
using Fields = std::vector<std::pair<std::string, std::string>>;

// One caller refused: `exception` is the error it gets ("" when the operation answers
// it but leaves out what it may not read: then `hidden` must not be in the answer).
struct Refusal {
  std::string user;
  std::string exception = "permissionDenied";
};

// The request of one entry, as its prepare step made it.
struct Prepared {
  std::string path = "/acme/main";
  bool get = false;
  Fields fields;
  // Object entries: the permission needed ("cmis:read", "cmis:write", "cmis:all") on
  // each object of `on`, given to bob; the request goes as bob both times.
  std::string needs;
  std::vector<std::string> on;
  // Other entries: who is refused and who is answered.
  std::vector<Refusal> refused;
  std::string allowed_as = "bob";
  // An id or name the refused caller's answer must not show and, when `needs` is
  // cmis:read on `on`, the allowed one's must.
  std::string hidden;
  int status = 200;  // of the allowed answer (2xx)
};

class World {
 public:
  World() {
    REQUIRE(Post("alice", "/acme", {{"operation", "updateGroup"}, {"groupId", "repository_main"},
                                    {"members", "alice,bob,carol"}})
                ->status == 200);
    auto dave = Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "dave"}, {"password", kDavePassword}});
    REQUIRE(dave->status == 201);  // dave is outside repository_main: the gate refuses him
    auto root = f.Get("/acme/main?cmisselector=object&succinct=true", "alice");
    REQUIRE(root->status == 200);
    root_id = BodyJson(root)["succinctProperties"].value("cmis:objectId", "");
    // Members read the root folder; nothing below it unless an entry says so.
    auto changed = Post("alice", "/acme/main",
                        {{"cmisaction", "applyACL"}, {"objectId", root_id}, {"ACLPropagation", "objectonly"},
                         {"removeACEPrincipal[0]", "repository_main"}, {"removeACEPermission[0][0]", "cmis:all"},
                         {"addACEPrincipal[0]", "repository_main"}, {"addACEPermission[0][0]", "cmis:read"}});
    REQUIRE_MESSAGE(changed->status == 201, changed->body);
  }

  static constexpr const char* kDavePassword = "dave-Pa55word!";

  httplib::Result Post(const std::string& user, const std::string& path, Fields fields) {
    fields.emplace_back("succinct", "true");
    if (user == "dave") {
      auto c = f.server().Client();
      return c.Post(path.c_str(), BasicAuth("dave", kDavePassword), FormBody(fields),
                    "application/x-www-form-urlencoded");
    }
    return f.Post(path, user, "", fields);
  }
  httplib::Result Get(const std::string& user, const std::string& path, Fields fields) {
    std::string url = path + "?" + FormBody(fields) + "&succinct=true";
    if (user == "dave") {
      auto c = f.server().Client();
      return c.Get(url.c_str(), BasicAuth("dave", kDavePassword));
    }
    return f.Get(url, user);
  }
  httplib::Result Send(const std::string& user, const Prepared& p) {
    return p.get ? Get(user, p.path, p.fields) : Post(user, p.path, p.fields);
  }

  static std::string Id(const httplib::Result& r) { return BodyJson(r)["succinctProperties"].value("cmis:objectId", ""); }

  // A folder in the root that only alice holds entries on (repository_main's removed).
  std::string Folder(const std::string& name, const std::string& parent = "") {
    auto r = Post("alice", "/acme/main",
                  {{"cmisaction", "createFolder"}, {"folderId", parent.empty() ? root_id : parent},
                   {"propertyId[0]", "cmis:objectTypeId"}, {"propertyValue[0]", "cmis:folder"},
                   {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", name},
                   {"removeACEPrincipal[0]", "repository_main"}, {"removeACEPermission[0][0]", "cmis:read"}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    return Id(r);
  }
  std::string Document(const std::string& folder, const std::string& name) {
    auto r = Post("alice", "/acme/main",
                  {{"cmisaction", "createDocument"}, {"folderId", folder}, {"propertyId[0]", "cmis:objectTypeId"},
                   {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", name},
                   {"content", "text of " + name}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    return Id(r);
  }
  // Gives bob exactly `permission` on `id` ("" for none), replacing what this world
  // gave him there before.
  void SetBob(const std::string& id, const std::string& permission) {
    Fields fields{{"cmisaction", "applyACL"}, {"objectId", id}, {"ACLPropagation", "objectonly"}};
    std::vector<std::string>& had = given_[id];
    if (had == std::vector<std::string>{permission} || (had.empty() && permission.empty())) return;
    for (size_t i = 0; i < had.size(); ++i) {
      fields.emplace_back("removeACEPrincipal[" + std::to_string(i) + "]", "bob");
      fields.emplace_back("removeACEPermission[" + std::to_string(i) + "][0]", had[i]);
    }
    if (!permission.empty()) {
      fields.emplace_back("addACEPrincipal[0]", "bob");
      fields.emplace_back("addACEPermission[0][0]", permission);
    }
    auto r = Post("alice", "/acme/main", fields);
    REQUIRE_MESSAGE(r->status == 201, r->body);
    had.clear();
    if (!permission.empty()) had.push_back(permission);
  }
  std::string LatestToken() {
    auto r = Get("alice", "/acme/main", {{"cmisselector", "repositoryInfo"}});
    REQUIRE(r->status == 200);
    return BodyJson(r)["main"]["latestChangeLogToken"].dump();
  }
  // A working copy of `doc` held by bob (given cmis:write for the check-out).
  std::string CheckedOutByBob(const std::string& doc) {
    SetBob(doc, "cmis:write");
    auto r = Post("bob", "/acme/main", {{"cmisaction", "checkOut"}, {"objectId", doc}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    return Id(r);
  }
  std::string NewType(const std::string& id) {
    const Json type{{"id", id}, {"parentId", "cmis:document"}, {"displayName", id}};
    auto r = Post("alice", "/acme/main", {{"cmisaction", "createType"}, {"type", type.dump()}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    return id;
  }

  AuthFixture f;
  std::string root_id;

 private:
  std::map<std::string, std::vector<std::string>> given_;
};

// The permission below `p`: what a refused bob holds.
std::string Below(const std::string& p) {
  if (p == "cmis:all") return "cmis:write";
  if (p == "cmis:write") return "cmis:read";
  return "";
}

using Prepare = std::function<Prepared(World&, const std::string& tag)>;

// An object entry: `needs` on `on`, request `fields` (GET when `get`).
Prepared On(std::vector<std::string> on, std::string needs, Fields fields, bool get = false, int status = 200) {
  Prepared p;
  p.on = std::move(on);
  p.needs = std::move(needs);
  p.fields = std::move(fields);
  p.get = get;
  p.status = status;
  return p;
}

Prepared Read(const std::string& id, const std::string& selector, Fields more = {}) {
  Fields fields{{"cmisselector", selector}, {"objectId", id}};
  fields.insert(fields.end(), more.begin(), more.end());
  return On({id}, "cmis:read", fields, true);
}

// A repository entry: the gate refuses dave; bob is answered. `hidden` (a document bob
// may not read) is left out of bob's answer until he may read it.
Prepared Gate(Fields fields, bool get = true, std::string hidden = "") {
  Prepared p;
  p.fields = std::move(fields);
  p.get = get;
  p.refused = {{"dave"}};
  p.hidden = std::move(hidden);
  return p;
}

// A domain entry: bob (no administrator) refused, alice answered.
Prepared Admin(Fields fields, int status, bool get = false) {
  Prepared p;
  p.path = "/acme";
  p.fields = std::move(fields);
  p.get = get;
  p.refused = {{"bob"}};
  p.allowed_as = "alice";
  p.status = status;
  return p;
}

Fields Create(const std::string& action, const std::string& folder, const std::string& type, const std::string& name) {
  return {{"cmisaction", action},          {"folderId", folder},         {"propertyId[0]", "cmis:objectTypeId"},
          {"propertyValue[0]", type},      {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", name}};
}

// Not served: notSupported for everyone, whatever the caller may do.
const Prepare kNotServed = nullptr;

// One entry per operation of the table. Server-level operations are checked by the
// second case (they need a server with an administrator password).
std::map<Operation, Prepare> Entries() {
  using O = Operation;
  std::map<O, Prepare> e;
  auto server_level = [](World&, const std::string&) { return Prepared{}; };
  e[O::kGetDomains] = server_level;
  e[O::kCreateDomain] = server_level;
  e[O::kDeleteDomain] = server_level;

  // Domain level. Listing repositories leaves out those the caller may not use; users
  // and groups are every user's to see.
  e[O::kGetRepositories] = [](World&, const std::string&) {
    Prepared p = Admin({{"operation", "getRepositories"}}, 200, true);
    p.refused = {{"dave", ""}};
    p.hidden = "\"main\"";
    p.allowed_as = "bob";
    return p;
  };
  e[O::kCreateRepository] = [](World&, const std::string& tag) {
    return Admin({{"operation", "createRepository"}, {"repositoryId", "repo-" + tag}}, 201);
  };
  e[O::kDeleteRepository] = [](World& w, const std::string& tag) {
    REQUIRE(w.Post("alice", "/acme", {{"operation", "createRepository"}, {"repositoryId", "repo-" + tag}})->status == 201);
    return Admin({{"operation", "deleteRepository"}, {"repositoryId", "repo-" + tag}}, 200);
  };
  e[O::kGetUsers] = [](World&, const std::string&) {
    Prepared p = Admin({{"operation", "getUsers"}}, 200, true);
    p.refused = {{"", "unauthorized"}};
    p.allowed_as = "dave";
    return p;
  };
  e[O::kGetGroups] = [](World&, const std::string&) {
    Prepared p = Admin({{"operation", "getGroups"}}, 200, true);
    p.refused = {{"", "unauthorized"}};
    p.allowed_as = "dave";
    return p;
  };
  e[O::kCreateUser] = [](World&, const std::string& tag) {
    return Admin({{"operation", "createUser"}, {"userId", "u" + tag}, {"password", "u-Pa55word!" + tag}}, 201);
  };
  e[O::kUpdateUser] = [](World&, const std::string&) {
    return Admin({{"operation", "updateUser"}, {"userId", "carol"}, {"displayName", "Carol C."}}, 200);
  };
  e[O::kDeleteUser] = [](World& w, const std::string& tag) {
    REQUIRE(w.Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "u" + tag}, {"password", "u-Pa55word!"}})
                ->status == 201);
    return Admin({{"operation", "deleteUser"}, {"userId", "u" + tag}}, 200);
  };
  e[O::kCreateGroup] = [](World&, const std::string& tag) {
    return Admin({{"operation", "createGroup"}, {"groupId", "g" + tag}, {"members", "carol"}}, 201);
  };
  e[O::kUpdateGroup] = [](World& w, const std::string& tag) {
    REQUIRE(w.Post("alice", "/acme", {{"operation", "createGroup"}, {"groupId", "g" + tag}})->status == 201);
    return Admin({{"operation", "updateGroup"}, {"groupId", "g" + tag}, {"members", "carol"}}, 200);
  };
  e[O::kDeleteGroup] = [](World& w, const std::string& tag) {
    REQUIRE(w.Post("alice", "/acme", {{"operation", "createGroup"}, {"groupId", "g" + tag}})->status == 201);
    return Admin({{"operation", "deleteGroup"}, {"groupId", "g" + tag}}, 200);
  };

  // Repository level, no object: the gate; listings leave out what bob may not read.
  e[O::kRepositoryInfo] = [](World&, const std::string&) { return Gate({{"cmisselector", "repositoryInfo"}}); };
  e[O::kTypeChildren] = [](World&, const std::string&) { return Gate({{"cmisselector", "typeChildren"}}); };
  e[O::kTypeDescendants] = [](World&, const std::string&) { return Gate({{"cmisselector", "typeDescendants"}}); };
  e[O::kTypeDefinition] = [](World&, const std::string&) {
    return Gate({{"cmisselector", "typeDefinition"}, {"typeId", "cmis:document"}});
  };
  e[O::kQuery] = [](World& w, const std::string& tag) {
    const std::string doc = w.Document(w.Folder("f" + tag), "secret" + tag + ".txt");
    Prepared p = Gate({{"cmisselector", "query"}, {"q", "SELECT cmis:objectId FROM cmis:document"}}, true, doc);
    p.on = {doc};
    return p;
  };
  e[O::kCheckedOut] = [](World& w, const std::string& tag) {
    const std::string doc = w.Document(w.Folder("f" + tag), "secret" + tag + ".txt");
    auto out = w.Post("alice", "/acme/main", {{"cmisaction", "checkOut"}, {"objectId", doc}});
    REQUIRE(out->status == 201);
    Prepared p = Gate({{"cmisselector", "checkedout"}}, true, doc.substr(0, doc.find(';')));
    p.on = {doc};
    return p;
  };
  e[O::kContentChanges] = [](World& w, const std::string& tag) {
    const std::string doc = w.Document(w.Folder("f" + tag), "secret" + tag + ".txt");
    Prepared p = Gate({{"cmisselector", "contentChanges"}, {"maxItems", "10000"}}, true, doc);
    p.on = {doc};
    return p;
  };
  e[O::kLastResult] = kNotServed;

  // Type management: cmis:all on the root folder.
  e[O::kCreateType] = [](World& w, const std::string& tag) {
    const Json type{{"id", "acme:t" + tag}, {"parentId", "cmis:document"}, {"displayName", "T"}};
    return On({w.root_id}, "cmis:all", {{"cmisaction", "createType"}, {"type", type.dump()}}, false, 201);
  };
  e[O::kUpdateType] = [](World& w, const std::string& tag) {
    const Json type{{"id", w.NewType("acme:t" + tag)}, {"displayName", "Renamed"}};
    return On({w.root_id}, "cmis:all", {{"cmisaction", "updateType"}, {"type", type.dump()}});
  };
  e[O::kDeleteType] = [](World& w, const std::string& tag) {
    return On({w.root_id}, "cmis:all", {{"cmisaction", "deleteType"}, {"typeId", w.NewType("acme:t" + tag)}});
  };

  // Object reads: cmis:read on the object.
  auto doc_read = [](const std::string& selector, Fields more = {}) -> Prepare {
    return [selector, more](World& w, const std::string& tag) {
      return Read(w.Document(w.Folder("f" + tag), "secret" + tag + ".txt"), selector, more);
    };
  };
  auto folder_read = [](const std::string& selector) -> Prepare {
    return [selector](World& w, const std::string& tag) { return Read(w.Folder("secret" + tag), selector); };
  };
  e[O::kObject] = doc_read("object");
  e[O::kProperties] = doc_read("properties");
  e[O::kAllowableActions] = doc_read("allowableActions");
  e[O::kRenditions] = doc_read("renditions");
  e[O::kContent] = doc_read("content");
  e[O::kVersions] = doc_read("versions");
  e[O::kRelationships] = doc_read("relationships", {{"relationshipDirection", "either"}});
  e[O::kPolicies] = doc_read("policies");
  e[O::kAcl] = doc_read("acl");
  e[O::kChildren] = folder_read("children");
  e[O::kDescendants] = folder_read("descendants");
  e[O::kFolderTree] = folder_read("folderTree");
  e[O::kParent] = [](World& w, const std::string& tag) {
    const std::string outer = w.Folder("f" + tag);
    const std::string inner = w.Folder("secret" + tag, outer);
    Prepared p = Read(inner, "parent");
    p.on = {inner, outer};
    return p;
  };
  e[O::kParents] = [](World& w, const std::string& tag) {
    const std::string folder = w.Folder("f" + tag);
    Prepared p = Read(w.Document(folder, "secret" + tag + ".txt"), "parents");
    p.on.push_back(folder);
    return p;
  };

  // Creates: cmis:write on the folder (and a read of the source's).
  auto create = [](const std::string& action, const std::string& type) -> Prepare {
    return [action, type](World& w, const std::string& tag) {
      const std::string folder = w.Folder("f" + tag);
      Fields fields = Create(action, folder, type, "new" + tag);
      if (type == "cmis:document") fields.emplace_back("content", "new");
      return On({folder}, "cmis:write", fields, false, 201);
    };
  };
  e[O::kCreateObject] = create("createObject", "cmis:document");
  e[O::kCreateDocument] = create("createDocument", "cmis:document");
  e[O::kCreateFolder] = create("createFolder", "cmis:folder");
  e[O::kCreateItem] = create("createItem", "cmis:item");
  e[O::kCreateDocumentFromSource] = [](World& w, const std::string& tag) {
    const std::string folder = w.Folder("f" + tag);
    const std::string source = w.Document(folder, "source" + tag + ".txt");
    return On({folder, source}, "cmis:write",
              {{"cmisaction", "createDocumentFromSource"}, {"folderId", folder}, {"sourceId", source},
               {"propertyId[0]", "cmis:name"}, {"propertyValue[0]", "copy" + tag}},
              false, 201);
  };
  e[O::kCreatePolicy] = kNotServed;
  e[O::kCreateRelationship] = [](World& w, const std::string& tag) {
    const std::string folder = w.Folder("f" + tag);
    const std::string a = w.Document(folder, "a" + tag), b = w.Document(folder, "b" + tag);
    return On({a, b}, "cmis:read",
              {{"cmisaction", "createRelationship"}, {"propertyId[0]", "cmis:objectTypeId"},
               {"propertyValue[0]", "cmis:relationship"}, {"propertyId[1]", "cmis:sourceId"}, {"propertyValue[1]", a},
               {"propertyId[2]", "cmis:targetId"}, {"propertyValue[2]", b}, {"propertyId[3]", "cmis:name"},
               {"propertyValue[3]", "r" + tag}},
              false, 201);
  };

  // Changes: cmis:write on the object (a move: and on both folders).
  auto doc_write = [](Fields fields, int status = 200) -> Prepare {
    return [fields, status](World& w, const std::string& tag) {
      const std::string doc = w.Document(w.Folder("f" + tag), "d" + tag + ".txt");
      Fields with = fields;
      with.emplace_back("objectId", doc);
      return On({doc}, "cmis:write", with, false, status);
    };
  };
  e[O::kUpdate] = doc_write({{"cmisaction", "update"}, {"propertyId[0]", "cmis:description"}, {"propertyValue[0]", "x"}});
  e[O::kSetContent] = doc_write({{"cmisaction", "setContent"}, {"content", "new text"}}, 201);
  e[O::kAppendContent] = doc_write({{"cmisaction", "appendContent"}, {"content", " more"}}, 201);
  e[O::kDeleteContent] = doc_write({{"cmisaction", "deleteContent"}});
  e[O::kDelete] = doc_write({{"cmisaction", "delete"}});
  e[O::kCheckOut] = doc_write({{"cmisaction", "checkOut"}}, 201);
  e[O::kBulkUpdate] = [](World& w, const std::string& tag) {
    const std::string doc = w.Document(w.Folder("f" + tag), "d" + tag + ".txt");
    return On({doc}, "cmis:write",
              {{"cmisaction", "bulkUpdate"}, {"objectId[0]", doc}, {"propertyId[0]", "cmis:description"},
               {"propertyValue[0]", "x"}});
  };
  e[O::kDeleteTree] = [](World& w, const std::string& tag) {
    const std::string folder = w.Folder("f" + tag);
    const std::string inner = w.Folder("in" + tag, folder);
    const std::string doc = w.Document(inner, "d" + tag + ".txt");
    return On({inner, doc}, "cmis:write", {{"cmisaction", "deleteTree"}, {"objectId", inner}});
  };
  e[O::kMove] = [](World& w, const std::string& tag) {
    const std::string from = w.Folder("f" + tag);
    const std::string to = w.Folder("to" + tag);
    const std::string doc = w.Document(from, "d" + tag + ".txt");
    return On({doc, from, to}, "cmis:write",
              {{"cmisaction", "move"}, {"objectId", doc}, {"sourceFolderId", from}, {"targetFolderId", to}}, false,
              201);
  };
  e[O::kAddObjectToFolder] = kNotServed;
  e[O::kRemoveObjectFromFolder] = kNotServed;

  // Versioning: the holder of the working copy with cmis:write.
  auto end_checkout = [](const std::string& action, int status) -> Prepare {
    return [action, status](World& w, const std::string& tag) {
      const std::string doc = w.Document(w.Folder("f" + tag), "d" + tag + ".txt");
      const std::string pwc = w.CheckedOutByBob(doc);
      return On({doc}, "cmis:write", {{"cmisaction", action}, {"objectId", pwc}}, false, status);
    };
  };
  e[O::kCheckIn] = end_checkout("checkIn", 201);
  e[O::kCancelCheckOut] = end_checkout("cancelCheckOut", 200);

  // Policies and access control.
  e[O::kApplyPolicy] = kNotServed;
  e[O::kRemovePolicy] = kNotServed;
  e[O::kApplyAcl] = [](World& w, const std::string& tag) {
    const std::string doc = w.Document(w.Folder("f" + tag), "d" + tag + ".txt");
    return On({doc}, "cmis:all",
              {{"cmisaction", "applyACL"}, {"objectId", doc}, {"addACEPrincipal[0]", "carol"},
               {"addACEPermission[0][0]", "cmis:read"}},
              false, 201);
  };
  return e;
}

bool Shows(const httplib::Result& r, const std::string& what) { return r->body.find(what) != std::string::npos; }

void ExpectRefused(const httplib::Result& r, const std::string& exception) {
  REQUIRE(r);
  const Json body = Json::parse(r->body, nullptr, false);
  const std::string got = body.is_object() ? body.value("exception", "") : "";
  CHECK_MESSAGE(got == exception, r->status, " ", r->body);
}

}  // namespace

TEST_CASE("Operation access: every operation of the table refuses a caller without its permission") {
  const std::map<Operation, Prepare> entries = Entries();
  // An operation added without an entry fails here, naming it.
  for (const Operation op : api::AllOperations()) {
    CHECK_MESSAGE(entries.count(op) == 1, "operation '", api::OperationName(op),
                  "' has no entry in the access table of operation_access_test.cc");
  }
  World w;
  int n = 0;
  for (const auto& [op, prepare] : entries) {
    const std::string name(api::OperationName(op));
    const api::ops::OperationRow& row = api::ops::OperationRowFor(op);
    CAPTURE(name);
    if (!prepare) {  // not served: refused for everyone before anything is looked up
      CHECK_FALSE(row.served());
      auto r = w.Post("alice", "/acme/main", {{"cmisaction", name}, {"objectId", w.root_id}});
      ExpectRefused(r, "notSupported");
      continue;
    }
    REQUIRE(row.served());
    if (row.RunsAt(api::ops::Level::kServer)) continue;  // the next case
    const std::string tag = std::to_string(++n);
    Prepared p = prepare(w, tag);
    // Refused: bob holds the permission below the one needed; dave is outside the gate.
    if (!p.needs.empty() && p.refused.empty()) {
      for (const std::string& id : p.on) w.SetBob(id, Below(p.needs));
      p.refused = {{"bob"}};
    }
    for (const Refusal& refusal : p.refused) {
      CAPTURE(refusal.user);
      const std::string before = w.LatestToken();
      auto r = w.Send(refusal.user, p);
      REQUIRE(r);
      if (refusal.exception.empty()) {
        CHECK_MESSAGE(r->status == 200, r->body);
      } else {
        ExpectRefused(r, refusal.exception);
      }
      if (!p.hidden.empty()) CHECK_MESSAGE(!Shows(r, p.hidden), r->body);
      // A refused read names nothing of what it addresses.
      if (p.needs == "cmis:read") CHECK_MESSAGE(!Shows(r, "secret"), r->body);
      CHECK(w.LatestToken() == before);  // nothing changed
    }
    // Answered: bob with the permission needed (or the entry's allowed caller).
    if (!p.hidden.empty() && !p.on.empty()) {  // a listing: without a read of the object, it is left out
      auto r = w.Send(p.allowed_as, p);
      REQUIRE(r);
      CHECK_MESSAGE(r->status == p.status, r->body);
      CHECK_MESSAGE(!Shows(r, p.hidden), r->body);
    }
    for (const std::string& id : p.on) w.SetBob(id, p.needs.empty() ? "cmis:read" : p.needs);
    auto r = w.Send(p.allowed_as, p);
    REQUIRE(r);
    CHECK_MESSAGE(r->status == p.status, r->body);
    if (!p.hidden.empty()) CHECK_MESSAGE(Shows(r, p.hidden), r->body);
    // What bob holds on the root folder would be copied into the next entry's objects.
    w.SetBob(w.root_id, "");
  }
}

TEST_CASE("Operation access: server operations need the server administrator") {
  ServerConfig config;
  config.service.admin_password = "server-Pa55word!";
  ServerFixture server(std::move(config));
  auto post = [&](const httplib::Headers& who, const Fields& fields) {
    auto c = server.Client();
    return c.Post("/", who, FormBody(fields), "application/x-www-form-urlencoded");
  };
  const httplib::Headers admin = BasicAuth("admin", "server-Pa55word!");
  const httplib::Headers other = BasicAuth("alice", "server-Pa55word!");
  REQUIRE(post(admin, {{"operation", "createDomain"}, {"domainId", "victim"}})->status == 201);
  struct Case {
    Operation op;
    Fields fields;
    int status;
  };
  const std::vector<Case> cases = {
      {Operation::kGetDomains, {{"operation", "getDomains"}}, 200},
      {Operation::kCreateDomain, {{"operation", "createDomain"}, {"domainId", "made"}}, 201},
      {Operation::kDeleteDomain, {{"operation", "deleteDomain"}, {"domainId", "victim"}}, 200},
  };
  std::set<Operation> covered;
  for (const Case& c : cases) {
    CAPTURE(api::OperationName(c.op));
    covered.insert(c.op);
    for (const httplib::Headers& who : {httplib::Headers{}, other}) {
      auto r = post(who, c.fields);
      ExpectRefused(r, "unauthorized");
    }
    CHECK(server.Client().Get("/", admin)->body.find("victim") != std::string::npos);
    auto r = post(admin, c.fields);
    REQUIRE(r);
    CHECK_MESSAGE(r->status == c.status, r->body);
  }
  for (const Operation op : api::AllOperations()) {
    if (api::ops::OperationRowFor(op).RunsAt(api::ops::Level::kServer)) {
      CHECK_MESSAGE(covered.count(op) == 1, "server operation '", api::OperationName(op), "' is not checked here");
    }
  }
}

}  // namespace folio::testing
