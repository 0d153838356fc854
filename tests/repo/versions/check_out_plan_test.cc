// versions::PlanCheckOut and versions::PlanCancelCheckOut without a disk: the working
// copy's record, the series after, the content copy (docs/STORAGE.md §4.2, Rules V2-V3),
// the events, and each error.
#include "repo/versions/check_out_plan.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "folio/cmis_ids.h"
#include "storage/datetime.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::repo::ObjectRecord;
using folio::repo::versions::CancelCheckOutInputs;
using folio::repo::versions::CancelCheckOutPlan;
using folio::repo::versions::CheckOutInputs;
using folio::repo::versions::CheckOutPlan;
using folio::repo::versions::PlanCancelCheckOut;
using folio::repo::versions::PlanCheckOut;
using folio::testing::Contains;

namespace {

constexpr int64_t kNow = 1'780'000'000'000;

ObjectRecord VersionRecord(const std::string& label, const std::string& type_id = "cmis:document") {
  ObjectRecord r;
  r.label = label;
  r.major = label.size() > 2 && label.substr(label.size() - 2) == ".0";
  r.properties = Json{{cmis::kObjectTypeId, type_id},
                      {cmis::kName, "a.txt"},
                      {cmis::kCreatedBy, "carol"},
                      {cmis::kCheckinComment, "the first draft"},
                      {"cmis:description", "d"}};
  ContentInfo c;
  c.length = 3;
  c.mime_type = "text/plain";
  c.file_name = "a.txt";
  c.sha256 = std::string(64, 'a');
  r.content = c;
  r.acl = {Ace{"alice", {"cmis:all"}}};
  return r;
}

// bob checks out version `label` of "/f/a.txt", whose series has `versions`.
CheckOutInputs Inputs(std::vector<std::string> versions, const std::string& label) {
  CheckOutInputs in;
  in.id = "dseries;" + label;
  in.base = BaseType::kDocument;
  in.path = "/f/a.txt";
  in.series.series_id = "dseries";
  in.series.versionable = true;
  in.series.versions = std::move(versions);
  in.label = label;
  in.version = VersionRecord(label);
  in.latest_type_id = "cmis:document";
  in.user = "bob";
  in.now_ms = kNow;
  return in;
}

CheckOutPlan Plan(const CheckOutInputs& in) {
  auto plan = PlanCheckOut(in);
  REQUIRE_MESSAGE(plan.ok(), plan.status().ToString());
  return *plan;
}

template <typename P>
std::vector<std::string> EventList(const P& plan) {
  std::vector<std::string> out;
  for (const auto& e : plan.events) out.push_back(e.type + " " + e.object_id + " " + e.type_id);
  return out;
}

CancelCheckOutInputs CancelInputs(std::vector<std::string> versions) {
  CancelCheckOutInputs in;
  in.series.series_id = "dseries";
  in.series.versionable = true;
  in.series.versions = std::move(versions);
  in.series.checked_out =
      repo::CheckOutRecord{"bob", kNow, in.series.versions.empty() ? "" : in.series.versions.back()};
  in.pwc = VersionRecord("pwc", "test:memo");
  in.latest_type_id = in.series.versions.empty() ? "" : "cmis:document";
  return in;
}

}  // namespace

TEST_CASE(
    "PlanCheckOut: the working copy is the version's record, made by the "
    "user now") {
  const CheckOutPlan plan = Plan(Inputs({"1.0", "1.1"}, "1.1"));
  CHECK(plan.label == "1.1");
  const ObjectRecord& pwc = plan.pwc;
  CHECK(pwc.label == "pwc");
  CHECK_FALSE(pwc.major);
  CHECK(pwc.properties[cmis::kCreatedBy] == "bob");
  CHECK(pwc.properties[cmis::kLastModifiedBy] == "bob");
  CHECK(pwc.properties[cmis::kCreationDate] == storage::FormatIsoMs(kNow));
  CHECK(pwc.properties[cmis::kLastModificationDate] == storage::FormatIsoMs(kNow));
  CHECK_FALSE(pwc.properties.contains(cmis::kCheckinComment));  // the version's, not the next one's
  CHECK(pwc.properties["cmis:description"] == "d");
  CHECK(pwc.properties[cmis::kName] == "a.txt");
  CHECK(repo::SameAcl(pwc.acl, VersionRecord("1.1").acl));
}

TEST_CASE(
    "PlanCheckOut: the series is checked out by the user from the "
    "version, its labels unchanged") {
  const CheckOutPlan plan = Plan(Inputs({"1.0", "1.1"}, "1.1"));
  CHECK(plan.series.versions == std::vector<std::string>{"1.0", "1.1"});
  REQUIRE(plan.series.checked_out.has_value());
  CHECK(plan.series.checked_out->by == "bob");
  CHECK(plan.series.checked_out->since_ms == kNow);
  CHECK(plan.series.checked_out->from == "1.1");
}

TEST_CASE(
    "PlanCheckOut: an earlier version may be checked out; events name "
    "the latest version") {
  CheckOutInputs in = Inputs({"1.0", "2.0"}, "1.0");
  in.latest_type_id = "test:memo";
  const CheckOutPlan plan = Plan(in);
  CHECK(plan.label == "1.0");
  CHECK(plan.series.checked_out->from == "1.0");
  CHECK(EventList(plan) ==
        std::vector<std::string>{"created dseries;pwc cmis:document", "updated dseries;2.0 test:memo"});
}

TEST_CASE(
    "PlanCheckOut: content is copied into the working copy's own file "
    "(Rule V3)") {
  CheckOutInputs in = Inputs({"1.0"}, "1.0");
  SUBCASE("with content: a copy, described as the version's") {
    const CheckOutPlan plan = Plan(in);
    CHECK(plan.copies_content);
    REQUIRE(plan.pwc.content.has_value());
    CHECK(plan.pwc.content->length == 3);
    CHECK(plan.pwc.content->sha256 == std::string(64, 'a'));
  }
  SUBCASE("without content: nothing copied") {
    in.version->content.reset();
    const CheckOutPlan plan = Plan(in);
    CHECK_FALSE(plan.copies_content);
    CHECK_FALSE(plan.pwc.content.has_value());
  }
}

TEST_CASE(
    "PlanCheckOut: an edit in place not taken in is copied with the rest "
    "(Rule V2)") {
  CheckOutInputs in = Inputs({"1.0"}, "1.0");
  FileStat edited;
  edited.type = FileType::kFile;
  edited.size = 9;
  in.edited = edited;
  const CheckOutPlan plan = Plan(in);
  CHECK(plan.copies_content);
  REQUIRE(plan.pwc.content.has_value());
  CHECK(plan.pwc.content->length == 9);
  CHECK(plan.pwc.content->sha256.empty());  // unknown (Rule V5)
}

TEST_CASE("PlanCheckOut: every error") {
  SUBCASE("not a document: constraint naming it") {
    CheckOutInputs in;
    in.id = "f-42";
    in.base = BaseType::kFolder;
    auto plan = PlanCheckOut(in);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(plan.status().message(), "f-42"));
    CHECK(Contains(plan.status().message(), "cmis:folder"));
  }
  SUBCASE("not versionable: constraint naming the path") {
    CheckOutInputs in = Inputs({"1.0"}, "1.0");
    in.series.versionable = false;
    auto plan = PlanCheckOut(in);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(plan.status().message(), "/f/a.txt"));
    CHECK(Contains(plan.status().message(), "not versionable"));
  }
  SUBCASE(
      "already checked out: versioning naming the path and who holds it "
      "since when") {
    CheckOutInputs in = Inputs({"1.0"}, "1.0");
    in.series.checked_out = repo::CheckOutRecord{"carol", kNow - 5000, "1.0"};
    auto plan = PlanCheckOut(in);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kVersioning);
    CHECK(Contains(plan.status().message(), "/f/a.txt"));
    CHECK(Contains(plan.status().message(), "carol"));
    CHECK(Contains(plan.status().message(), storage::FormatIsoMs(kNow - 5000)));
  }
  SUBCASE("created checked out, not checked in yet: versioning") {
    CheckOutInputs in = Inputs({}, "");
    in.series.checked_out = repo::CheckOutRecord{"carol", kNow, ""};
    CHECK(PlanCheckOut(in).status().kind() == ErrorKind::kVersioning);
  }
  SUBCASE("a version the series does not have: objectNotFound naming the id") {
    CheckOutInputs in = Inputs({"1.0"}, "3.0");
    in.version.reset();
    auto plan = PlanCheckOut(in);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kObjectNotFound);
    CHECK(Contains(plan.status().message(), "dseries;3.0"));
  }
}

TEST_CASE(
    "PlanCancelCheckOut: the series is no longer checked out; versions "
    "and events") {
  const CancelCheckOutInputs in = CancelInputs({"1.0", "1.1"});
  auto plan = PlanCancelCheckOut(in);
  REQUIRE_MESSAGE(plan.ok(), plan.status().ToString());
  CHECK_FALSE(plan->removes_document);
  CHECK_FALSE(plan->series.checked_out.has_value());
  CHECK(plan->series.versions == std::vector<std::string>{"1.0", "1.1"});
  CHECK(plan->series.series_id == "dseries");
  // The working copy's type names its "deleted" event, the latest version's its "updated".
  CHECK(EventList(*plan) ==
        std::vector<std::string>{"deleted dseries;pwc test:memo", "updated dseries;1.1 cmis:document"});
}

TEST_CASE("PlanCancelCheckOut: a document created checked out goes whole") {
  auto plan = PlanCancelCheckOut(CancelInputs({}));
  REQUIRE_MESSAGE(plan.ok(), plan.status().ToString());
  CHECK(plan->removes_document);
  CHECK(EventList(*plan) == std::vector<std::string>{"deleted dseries;pwc test:memo"});
}

TEST_CASE("PlanCancelCheckOut: every error") {
  SUBCASE(
      "not checked out (checked in or cancelled already): objectNotFound "
      "naming the working copy") {
    CancelCheckOutInputs in = CancelInputs({"1.0"});
    in.series.checked_out.reset();
    auto plan = PlanCancelCheckOut(in);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kObjectNotFound);
    CHECK(Contains(plan.status().message(), "dseries;pwc"));
  }
}
