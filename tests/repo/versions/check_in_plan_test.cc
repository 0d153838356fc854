// versions::PlanCheckIn without a disk: labels, where the new version's content comes
// from (docs/STORAGE.md §4.2, Rules V2-V4), a new name, who may check in, the records
// and events it decides, and each error.
#include "repo/versions/check_in_plan.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "folio/cmis_ids.h"
#include "storage/datetime.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::repo::types::BuiltInType;
using folio::repo::ObjectRecord;
using folio::repo::types::PropertyDef;
using folio::repo::types::TypeDef;
using folio::repo::versions::CheckInInputs;
using folio::repo::versions::CheckInPlan;
using folio::repo::versions::NewContent;
using folio::repo::versions::PlanCheckIn;
using folio::testing::Contains;

namespace {

constexpr int64_t kNow = 1'780'000'000'000;

FileStat StatWithLinks(uint32_t links) {
  FileStat st;
  st.type = FileType::kFile;
  st.size = 3;
  st.inode = 77;
  st.links = links;
  return st;
}

ContentInfo Described(uint64_t length) {
  ContentInfo c;
  c.length = length;
  c.mime_type = "text/plain";
  c.file_name = "a.txt";
  c.sha256 = std::string(64, 'a');
  return c;
}

ObjectRecord VersionRecord(const std::string& label) {
  ObjectRecord r;
  r.label = label;
  r.major = label.size() > 2 && label.substr(label.size() - 2) == ".0";
  r.properties = Json{{cmis::kObjectTypeId, "cmis:document"}, {cmis::kName, "a.txt"}};
  r.content = Described(3);
  r.acl = {Ace{"alice", {"cmis:all"}}};
  return r;
}

// A working copy of "a.txt" checked out by bob from the latest of `versions`.
CheckInInputs Inputs(std::vector<std::string> versions, std::shared_ptr<const TypeDef> type = nullptr) {
  CheckInInputs in;
  in.series.series_id = "dseries";
  in.series.versions = std::move(versions);
  in.series.checked_out = repo::CheckOutRecord{"bob", kNow - 1000, in.series.versions.empty() ? "" : in.series.versions.back()};
  in.name = "a.txt";
  in.pwc = VersionRecord("pwc");
  in.pwc.properties[cmis::kCheckinComment] = "an earlier comment";
  in.user = "alice";
  in.now_ms = kNow;
  in.type = type ? type : BuiltInType("cmis:document");
  in.rules.before = in.type;
  in.rules.after = in.type;
  in.pwc_content = StatWithLinks(1);
  return in;
}

CheckInPlan Plan(const CheckInInputs& in, const CheckInRequest& req = {}) {
  auto plan = PlanCheckIn(in, req);
  REQUIRE_MESSAGE(plan.ok(), plan.status().ToString());
  return *plan;
}

std::vector<std::string> EventList(const CheckInPlan& plan) {
  std::vector<std::string> out;
  for (const auto& e : plan.events) out.push_back(e.type + " " + e.object_id);
  return out;
}

// cmis:document with `change` applied, under another id.
std::shared_ptr<const TypeDef> CustomType(const std::string& id, const std::function<void(TypeDef&)>& change) {
  auto t = std::make_shared<TypeDef>(*BuiltInType("cmis:document"));
  t->id = id;
  t->parent_id = "cmis:document";
  change(*t);
  return t;
}

}  // namespace

TEST_CASE("PlanCheckIn: labels follow major and minor check-ins from the latest version") {
  struct Row {
    std::vector<std::string> versions;
    bool major;
    std::string label;
  };
  const std::vector<Row> rows = {
      {{}, true, "1.0"},         {{}, false, "0.1"},           {{"0.1"}, false, "0.2"},
      {{"0.1"}, true, "1.0"},    {{"1.0"}, false, "1.1"},      {{"1.0", "1.1"}, true, "2.0"},
      {{"2.0"}, false, "2.1"},   {{"1.9"}, false, "1.10"},     {{"1.0", "2.0", "2.1"}, true, "3.0"},
  };
  for (const Row& row : rows) {
    CheckInRequest req;
    req.major = row.major;
    const CheckInPlan plan = Plan(Inputs(row.versions), req);
    INFO(row.label);
    CHECK(plan.label == row.label);
    CHECK(plan.version.label == row.label);
    CHECK(plan.version.major == (row.label.substr(row.label.find('.')) == ".0"));
    std::vector<std::string> after = row.versions;
    after.push_back(row.label);
    CHECK(plan.series.versions == after);
    CHECK_FALSE(plan.series.checked_out.has_value());
  }
}

TEST_CASE("PlanCheckIn: without content the new version takes the working copy's own file, never an earlier one's") {
  // Rule V3/V4: the working copy's content is its own file (a copy made at check-out);
  // it becomes the new version's, so the version that becomes an earlier one keeps its
  // file and the visible file (linked to the new version's) shares no inode with it.
  CheckInInputs in = Inputs({"1.0"});
  SUBCASE("its only name: renamed") {
    const CheckInPlan plan = Plan(in);
    CHECK(plan.content == NewContent::kWorkingCopyRenamed);
    REQUIRE(plan.version.content.has_value());
    CHECK(plan.version.content->sha256 == in.pwc.content->sha256);
    CHECK(plan.rewritten.empty());  // version 1.0 is not touched
  }
  SUBCASE("another name (older data linked it to a version): copied") {
    in.pwc_content = StatWithLinks(2);
    CHECK(Plan(in).content == NewContent::kWorkingCopyCopied);
  }
  SUBCASE("a filesystem that does not count names: copied") {
    in.pwc_content = StatWithLinks(0);
    CHECK(Plan(in).content == NewContent::kWorkingCopyCopied);
  }
  SUBCASE("no content in the working copy: none, and an empty visible file") {
    in.pwc.content.reset();
    in.pwc_content.reset();
    const CheckInPlan plan = Plan(in);
    CHECK(plan.content == NewContent::kNone);
    CHECK_FALSE(plan.version.content.has_value());
  }
}

TEST_CASE("PlanCheckIn: content in the request replaces the working copy's") {
  CheckInInputs in = Inputs({"1.0"});
  CheckInRequest req;
  req.content = ContentSource::FromBytes("new", "text/plain");
  const CheckInPlan plan = Plan(in, req);
  CHECK(plan.content == NewContent::kFromRequest);
  CHECK_FALSE(plan.version.content.has_value());  // described when staged
  // A working copy without content takes content too.
  in.pwc.content.reset();
  in.pwc_content.reset();
  CHECK(Plan(in, req).content == NewContent::kFromRequest);
}

TEST_CASE("PlanCheckIn: a new name renames; the working copy's own name counts too") {
  CheckInInputs in = Inputs({"1.0"});
  CHECK_FALSE(Plan(in).renames);
  CHECK(Plan(in).name == "a.txt");
  CheckInRequest req;
  req.properties = Json{{cmis::kName, "b.txt"}};
  CheckInPlan plan = Plan(in, req);
  CHECK(plan.renames);
  CHECK(plan.name == "b.txt");
  CHECK(plan.version.properties[cmis::kName] == "b.txt");
  // Renamed while checked out (updateProperties of the working copy): the check-in renames.
  in.pwc.properties[cmis::kName] = "c.txt";
  plan = Plan(in);
  CHECK(plan.renames);
  CHECK(plan.name == "c.txt");
  // A name that is not valid is Relocation's to refuse (before anything is staged).
  req.properties = Json{{cmis::kName, std::string(300, 'x')}};
  CHECK(Plan(in, req).renames);
}

TEST_CASE("PlanCheckIn: whoever may write the working copy checks it in and creates the version") {
  CheckInInputs in = Inputs({"1.0"});  // checked out by bob
  CheckInRequest req;
  req.comment = "typo fixed";
  req.properties = Json{{"cmis:description", "d"}};
  const CheckInPlan plan = Plan(in, req);  // by alice
  const Json& p = plan.version.properties;
  CHECK(p[cmis::kCreatedBy] == "alice");
  CHECK(p[cmis::kLastModifiedBy] == "alice");
  CHECK(p[cmis::kCreationDate] == storage::FormatIsoMs(kNow));
  CHECK(p[cmis::kLastModificationDate] == storage::FormatIsoMs(kNow));
  CHECK(p[cmis::kCheckinComment] == "typo fixed");
  CHECK(p["cmis:description"] == "d");
  CHECK(EventList(plan) == std::vector<std::string>{"deleted dseries;pwc", "created dseries;2.0"});
  // Without a comment the working copy's earlier one is not kept.
  CHECK_FALSE(Plan(in).version.properties.contains(cmis::kCheckinComment));
  // Null unsets.
  in.pwc.properties["cmis:description"] = "old";
  req.properties = Json{{"cmis:description", nullptr}};
  CHECK_FALSE(Plan(in, req).version.properties.contains("cmis:description"));
}

TEST_CASE("PlanCheckIn: ACEs reach every version and log a security event") {
  CheckInInputs in = Inputs({"1.0", "1.1"});
  in.versions = {{"1.0", VersionRecord("1.0")}, {"1.1", VersionRecord("1.1")}};
  CheckInRequest req;
  req.add_aces = {Ace{"carol", {"cmis:read"}}};
  const CheckInPlan plan = Plan(in, req);
  REQUIRE(plan.version.acl.size() == 2);
  REQUIRE(plan.rewritten.size() == 2);
  for (const auto& [label, r] : plan.rewritten) CHECK(repo::SameAcl(r.acl, plan.version.acl));
  CHECK(EventList(plan) ==
        std::vector<std::string>{"deleted dseries;pwc", "created dseries;2.0", "security dseries;2.0"});
}

TEST_CASE("PlanCheckIn: an edit in place not taken in is the latest version's, with an event (Rule V2)") {
  CheckInInputs in = Inputs({"1.0", "1.1"});
  FileStat edited = StatWithLinks(2);
  edited.size = 9;
  in.edited = edited;
  in.versions = {{"1.1", VersionRecord("1.1")}};
  const CheckInPlan plan = Plan(in);
  REQUIRE(plan.rewritten.count("1.1") == 1);
  const ObjectRecord& was_latest = plan.rewritten.at("1.1");
  REQUIRE(was_latest.content.has_value());
  CHECK(was_latest.content->length == 9);
  CHECK(was_latest.content->sha256.empty());  // unknown (Rule V5)
  CHECK(plan.rewritten.count("1.0") == 0);
  CHECK(EventList(plan) ==
        std::vector<std::string>{"updated dseries;1.1", "deleted dseries;pwc", "created dseries;2.0"});
}

TEST_CASE("PlanCheckIn: every error") {
  SUBCASE("not checked out (checked in or cancelled already)") {
    CheckInInputs in = Inputs({"1.0"});
    in.series.checked_out.reset();
    auto plan = PlanCheckIn(in, {});
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kObjectNotFound);
    CHECK(Contains(plan.status().message(), "dseries;pwc"));
  }
  SUBCASE("content a type forbids") {
    CheckInInputs in = Inputs({"1.0"}, CustomType("test:bare", [](TypeDef& t) { t.content_stream_allowed = "notallowed"; }));
    CheckInRequest req;
    req.content = ContentSource::FromBytes("x");
    auto plan = PlanCheckIn(in, req);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kStreamNotSupported);
    CHECK(Contains(plan.status().message(), "test:bare"));
  }
  SUBCASE("an unknown property") {
    CheckInRequest req;
    req.properties = Json{{"test:nosuch", "x"}};
    auto plan = PlanCheckIn(Inputs({"1.0"}), req);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(plan.status().message(), "test:nosuch"));
  }
  SUBCASE("a read-only property") {
    CheckInRequest req;
    req.properties = Json{{cmis::kVersionLabel, "9.9"}};
    auto plan = PlanCheckIn(Inputs({"1.0"}), req);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(plan.status().message(), cmis::kVersionLabel));
  }
  SUBCASE("a required property unset") {
    auto type = CustomType("test:needs", [](TypeDef& t) {
      PropertyDef p;
      p.id = "test:code";
      p.required = true;
      t.properties[p.id] = p;
    });
    CheckInInputs in = Inputs({"1.0"}, type);
    in.pwc.properties["test:code"] = "c1";
    CHECK(PlanCheckIn(in, {}).ok());
    CheckInRequest req;
    req.properties = Json{{"test:code", nullptr}};
    auto plan = PlanCheckIn(in, req);
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(plan.status().message(), "test:code"));
  }
  SUBCASE("inputs without what the plan needs: a bug in the caller") {
    CheckInInputs in = Inputs({"1.0"});
    in.pwc_content.reset();
    CHECK(PlanCheckIn(in, {}).status().kind() == ErrorKind::kRuntime);
    in = Inputs({"1.0"});
    in.type.reset();
    CHECK(PlanCheckIn(in, {}).status().kind() == ErrorKind::kRuntime);
    in = Inputs({"1.0"});
    in.edited = StatWithLinks(2);  // the latest version's record not given
    CHECK(PlanCheckIn(in, {}).status().kind() == ErrorKind::kRuntime);
  }
}
