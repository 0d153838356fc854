// LoggedObjects (src/repo/hand_edits/logged_objects.h) on MemFs: the ids a change log's "created"
// events named for a series and no "deleted" event named since, in creation order; a
// series whose events retention dropped is left out.
#include <doctest/doctest.h>

#include "repo/hand_edits/logged_objects.h"
#include "storage/mem_fs.h"

namespace folio::repo::hand_edits {
namespace {

storage::ChangeEvent Ev(uint64_t token, const std::string& type, const std::string& id) {
  storage::ChangeEvent e;
  e.token = token;
  e.time_ms = 1000 + static_cast<int64_t>(token);
  e.type = type;
  e.object_id = id;
  e.base_type_id = e.type_id = id[0] == 'f' ? "cmis:folder" : "cmis:document";
  return e;
}

TEST_CASE("LoggedObjects: versions and working copy created and not deleted, per series asked for") {
  storage::MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  storage::ChangeLogStore log(fs, "r/changes");
  CHECK(LoggedObjects(log, {"da"})->empty());  // an empty log
  REQUIRE(log.Append({Ev(1, "created", "fx"), Ev(2, "created", "da;1.0"), Ev(3, "created", "da;pwc"),
                      Ev(4, "updated", "da;1.0"), Ev(5, "deleted", "da;pwc"), Ev(6, "created", "da;1.1"),
                      Ev(7, "created", "db;1.0"), Ev(8, "created", "da;pwc"), Ev(9, "created", "dc;1.0"),
                      Ev(10, "deleted", "dc;1.0"), Ev(11, "created", "dab;1.0")})
              .ok());
  auto got = LoggedObjects(log, {"da", "dc", "dd", "fx"});
  REQUIRE(got.ok());
  // Only the series asked for; one wholly deleted, one never logged and a folder (no
  // version ids) are left out; "dab" is not "da".
  CHECK(*got == std::map<std::string, std::vector<std::string>>{{"da", {"da;1.0", "da;1.1", "da;pwc"}}});
  CHECK(LoggedObjects(log, {})->empty());
}

TEST_CASE("LoggedObjects: a series whose events retention dropped is left out") {
  storage::MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  storage::ChangeLogStore log(fs, "r/changes", storage::ChangeLogLimits{.max_events = 8, .segment_events = 2});
  REQUIRE(log.Append({Ev(1, "created", "dold;1.0")}).ok());
  for (uint64_t t = 2; t <= 20; ++t) REQUIRE(log.Append({Ev(t, "created", "f" + std::to_string(t))}).ok());
  REQUIRE(log.Append({Ev(21, "created", "dnew;1.0")}).ok());
  REQUIRE(*log.FirstToken() > 1);
  auto got = LoggedObjects(log, {"dold", "dnew"});
  REQUIRE(got.ok());
  CHECK(*got == std::map<std::string, std::vector<std::string>>{{"dnew", {"dnew;1.0"}}});
}

}  // namespace
}  // namespace folio::repo::hand_edits
