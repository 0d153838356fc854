#include "api/operation.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

TEST_CASE("ParseOperation: every spelling of every operation parses back, in any case") {
  std::set<std::string> seen;
  for (const Operation op : AllOperations()) {
    REQUIRE(!OperationSpellings(op).empty());
    CHECK(OperationSpellings(op)[0] == OperationName(op));
    for (const std::string_view spelling : OperationSpellings(op)) {
      CHECK_MESSAGE(seen.insert(Upper(spelling)).second, "spelling used twice: " << spelling);
      Result<Operation> parsed = ParseOperation(spelling);
      REQUIRE_MESSAGE(parsed.ok(), spelling);
      CHECK(*parsed == op);
      Result<Operation> upper = ParseOperation(Upper(spelling));
      REQUIRE(upper.ok());
      CHECK(*upper == op);
    }
  }
}

TEST_CASE("ParseOperation: service, CMIS and method-style names are synonyms") {
  struct Case {
    std::string_view name;
    Operation op;
  };
  const Case cases[] = {
      {"object", Operation::kObject},
      {"getObject", Operation::kObject},
      {"children", Operation::kChildren},
      {"getChildren", Operation::kChildren},
      {"versions", Operation::kVersions},
      {"getAllVersions", Operation::kVersions},
      {"update", Operation::kUpdate},
      {"updateProperties", Operation::kUpdate},
      {"delete", Operation::kDelete},
      {"deleteObject", Operation::kDelete},
      {"content", Operation::kContent},
      {"getContentStream", Operation::kContent},
      {"setContent", Operation::kSetContent},
      {"setContentStream", Operation::kSetContent},
      {"deleteContent", Operation::kDeleteContent},
      {"deleteContentStream", Operation::kDeleteContent},
      {"parent", Operation::kParent},
      {"getFolderParent", Operation::kParent},
      {"parents", Operation::kParents},
      {"getObjectParents", Operation::kParents},
      {"checkedout", Operation::kCheckedOut},
      {"checkedOut", Operation::kCheckedOut},  // what CmisJS sends
      {"getCheckedOutDocs", Operation::kCheckedOut},
      {"repositoryInfo", Operation::kRepositoryInfo},
      {"getRepositoryInfo", Operation::kRepositoryInfo},
      {"typeChildren", Operation::kTypeChildren},
      {"getTypeChildren", Operation::kTypeChildren},
      {"typeDefinition", Operation::kTypeDefinition},
      {"getTypeDefinition", Operation::kTypeDefinition},
      {"acl", Operation::kAcl},
      {"getACL", Operation::kAcl},
      {"move", Operation::kMove},
      {"moveObject", Operation::kMove},
      {"createObject", Operation::kCreateObject},
      {"createDocument", Operation::kCreateDocument},
      {"createFolder", Operation::kCreateFolder},
      {"createItem", Operation::kCreateItem},
      {"createRelationship", Operation::kCreateRelationship},
      {"checkOut", Operation::kCheckOut},
      {"CHECKOUT", Operation::kCheckOut},
      {"checkin", Operation::kCheckIn},
      {"cancelCheckOut", Operation::kCancelCheckOut},
      {"query", Operation::kQuery},
      {"folder", Operation::kFolderTree},
      {"applyAcl", Operation::kApplyAcl},
      {"getDomains", Operation::kGetDomains},
      {"createRepository", Operation::kCreateRepository},
      {"createUser", Operation::kCreateUser},
      {"getGroups", Operation::kGetGroups},
      {"lastResult", Operation::kLastResult},
      {"bulkUpdate", Operation::kBulkUpdate},
      {"contentChanges", Operation::kContentChanges},
  };
  for (const Case& c : cases) {
    Result<Operation> parsed = ParseOperation(c.name);
    REQUIRE_MESSAGE(parsed.ok(), c.name);
    CHECK_MESSAGE(*parsed == c.op, c.name);
  }
}

TEST_CASE("ParseOperation: unknown names are notSupported, naming the operation") {
  const std::string_view unknown[] = {
      "",       "frobnicate", "checkOutt", "get", " object", "object ", "getObjectOfLatestVersion",
      "obj\xFF"};
  for (const std::string_view name : unknown) {
    Result<Operation> parsed = ParseOperation(name);
    REQUIRE_MESSAGE(!parsed.ok(), name);
    CHECK(parsed.status().kind() == ErrorKind::kNotSupported);
    CHECK(Contains(parsed.status().message(), "unknown operation '"));
  }
  CHECK(Contains(ParseOperation("frobnicate").status().message(), "'frobnicate'"));
}

TEST_CASE("OperationName: canonical spellings follow CMIS") {
  CHECK(OperationName(Operation::kObject) == "object");
  CHECK(OperationName(Operation::kCheckedOut) == "checkedout");
  CHECK(OperationName(Operation::kUpdate) == "update");
  CHECK(OperationName(Operation::kApplyAcl) == "applyACL");
  CHECK(OperationName(Operation::kCreateObject) == "createObject");
  CHECK(OperationName(Operation::kVersions) == "versions");
}

TEST_CASE("IsWrite: reads and query are not writes; changes are") {
  const Operation reads[] = {Operation::kObject,         Operation::kChildren,
                             Operation::kQuery,          Operation::kVersions,
                             Operation::kContent,        Operation::kGetDomains,
                             Operation::kLastResult,     Operation::kTypeDefinition,
                             Operation::kRepositoryInfo, Operation::kAcl};
  for (const Operation op : reads) CHECK_MESSAGE(!IsWrite(op), OperationName(op));
  const Operation writes[] = {
      Operation::kCreateObject,   Operation::kCheckOut,   Operation::kCheckIn,
      Operation::kCancelCheckOut, Operation::kUpdate,     Operation::kDelete,
      Operation::kSetContent,     Operation::kApplyAcl,   Operation::kCreateDomain,
      Operation::kDeleteUser,     Operation::kCreateType, Operation::kMove};
  for (const Operation op : writes) CHECK_MESSAGE(IsWrite(op), OperationName(op));
}

}  // namespace
}  // namespace folio::api
