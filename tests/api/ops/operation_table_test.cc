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

// The operations docs/API.md §10 lists as specified but not served yet. A handler added
// to the table must also move the operation out of that section.
const std::set<Operation> kNotServedYet = {
    Operation::kGetUsers,          Operation::kCreateUser,          Operation::kUpdateUser,
    Operation::kDeleteUser,        Operation::kGetGroups,           Operation::kCreateGroup,
    Operation::kUpdateGroup,       Operation::kDeleteGroup,         Operation::kQuery,
    Operation::kContentChanges,    Operation::kLastResult,          Operation::kUpdateType,
    Operation::kDescendants,       Operation::kFolderTree,          Operation::kCreatePolicy,
    Operation::kAddObjectToFolder, Operation::kRemoveObjectFromFolder, Operation::kApplyPolicy,
    Operation::kRemovePolicy,      Operation::kApplyAcl,
};

// A request for `op` at `level` of RepoFixture's store: POST for writes, GET for reads.
Request RequestFor(const OperationRow& row, Level level) {
  Request request;
  request.method = row.write ? "POST" : "GET";
  request.base_url = "http://127.0.0.1:1";
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
