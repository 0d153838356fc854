#include "api/ops/operation_table.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "api/dispatch.h"
#include "support/repo_fixture.h"

namespace folio::api::ops {
namespace {

constexpr Level kLevels[] = {Level::kServer, Level::kDomain, Level::kRepository};

// The operations docs/API.md §10 lists as not served. A handler added
// to the table must also move the operation out of that section.
const std::set<Operation> kNotServedYet = {
    Operation::kLastResult,        Operation::kCreatePolicy,
    Operation::kAddObjectToFolder, Operation::kRemoveObjectFromFolder, Operation::kApplyPolicy,
    Operation::kRemovePolicy,
};

// A request for `op` at `level` of RepoFixture's store: POST for writes, GET for reads.
Request RequestFor(const OperationRow& row, Level level) {
  Request request;
  request.method = row.write ? "POST" : "GET";
  request.base_url = "http://127.0.0.1:1";
  // A loopback client: server-level operations need no administrator password then
  // (docs/API.md §11.2), so what is tested is the level alone.
  request.peer_loopback = true;
  if (level != Level::kServer) request.path.push_back("demo");
  if (level == Level::kRepository) request.path.push_back("main");
  request.query.emplace_back("operation", std::string(row.spellings[0]));
  return request;
}

TEST_CASE("OperationTable: exactly one row per Operation, in declaration order") {
  const std::span<const OperationRow> table = OperationTable();
  REQUIRE(table.size() == AllOperations().size());
  for (size_t i = 0; i < AllOperations().size(); ++i) {
    const Operation op = AllOperations()[i];
    CHECK(static_cast<size_t>(op) == i);  // the enum has no gaps
    size_t rows = 0;
    for (const OperationRow& row : table) rows += row.op == op ? 1 : 0;
    CHECK_MESSAGE(rows == 1, OperationName(op));
    CHECK(&OperationRowFor(op) == &table[i]);
  }
}

TEST_CASE("OperationTable: every row has spellings and a level; a served row has a handler") {
  std::vector<Operation> not_served;
  for (const OperationRow& row : OperationTable()) {
    CAPTURE(row.spellings[0]);
    REQUIRE(!row.Spellings().empty());
    CHECK(OperationName(row.op) == row.spellings[0]);
    CHECK(IsWrite(row.op) == row.write);
    CHECK(row.levels != 0);
    CHECK((row.levels & ~(LevelBit(Level::kServer) | LevelBit(Level::kDomain) | LevelBit(Level::kRepository))) == 0);
    if (kNotServedYet.contains(row.op)) {
      CHECK(!row.served());
      not_served.push_back(row.op);
    } else {
      CHECK(row.served());
      CHECK((row.handler != nullptr));
    }
  }
  CHECK(not_served.size() == kNotServedYet.size());
}

// The table says what each operation needs on its object: a write can never pass with
// read alone, a read always needs read, and only the handlers that check the objects
// they touch themselves (a relationship's ends, bulkUpdate's objects, the root folder of
// type management) need nothing of the object addressed.
TEST_CASE("OperationTable: a write needs more than read on its object; a read needs read") {
  const std::set<Operation> check_their_own = {Operation::kCreateRelationship, Operation::kBulkUpdate,
                                               Operation::kCreateType, Operation::kUpdateType,
                                               Operation::kDeleteType};
  for (const OperationRow& row : OperationTable()) {
    CAPTURE(row.spellings[0]);
    if (!row.RunsAt(Level::kRepository) || !row.served()) {
      CHECK(!row.target_action.has_value());  // above the repository: no object; not served: not run
      continue;
    }
    if (check_their_own.contains(row.op)) {
      CHECK(!row.target_action.has_value());
    } else if (row.write) {
      REQUIRE(row.target_action.has_value());
      CHECK(*row.target_action != acl::Action::kRead);
    } else {
      CHECK(row.target_action == acl::Action::kRead);
    }
  }
  CHECK(OperationRowFor(Operation::kCheckIn).target_action == acl::Action::kCheckIn);
  CHECK(OperationRowFor(Operation::kCreateFolder).target_action == acl::Action::kCreateChild);
  CHECK(OperationRowFor(Operation::kAppendContent).target_action == acl::Action::kSetContent);
  CHECK(OperationRowFor(Operation::kApplyAcl).target_action == acl::Action::kApplyAcl);
}

TEST_CASE("Service: an operation not served yet answers notSupported naming it") {
  folio::testing::RepoFixture fx;
  Service service(*fx.store, ServiceOptions{});
  for (const OperationRow& row : OperationTable()) {
    if (row.served()) continue;
    for (const Level level : kLevels) {
      if (!row.RunsAt(level)) continue;
      CAPTURE(row.spellings[0]);
      const Response response = service.Handle(RequestFor(row, level));
      CHECK(response.status == 405);
      CHECK(response.exception == "notSupported");
      CHECK(response.operation == row.spellings[0]);
      const auto body = nlohmann::json::parse(response.body);
      CHECK(body["message"] == "operation '" + std::string(row.spellings[0]) + "' is not supported");
    }
  }
}

TEST_CASE("Service: a served operation sent to a level where it does not run is notSupported naming the level") {
  folio::testing::RepoFixture fx;
  Service service(*fx.store, ServiceOptions{});
  for (const OperationRow& row : OperationTable()) {
    if (!row.served()) continue;
    for (const Level level : kLevels) {
      if (row.RunsAt(level)) continue;
      CAPTURE(row.spellings[0]);
      CAPTURE(static_cast<int>(level));
      const Response response = service.Handle(RequestFor(row, level));
      CHECK(response.status == 405);
      CHECK(response.exception == "notSupported");
      const std::string message = nlohmann::json::parse(response.body)["message"];
      CHECK_MESSAGE(message.find("operation '" + std::string(row.spellings[0]) + "' is not available at ") == 0,
                    message);
    }
  }
  // Nothing was created or deleted on the way.
  auto domains = fx.store->ListDomains();
  REQUIRE(domains.ok());
  CHECK(domains->size() == 1);
  CHECK(fx.store->GetRepository("demo", "main").ok());
}

}  // namespace
}  // namespace folio::api::ops
