// changes::Relocation through its three callers: a rename (updateProperties of
// cmis:name), a move and a check-in with a new name each fail on a limit (a name too
// long, a name taken, a path past Rule P1) before anything is staged, and change nothing.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "folio/repository.h"
#include "storage/name_rules.h"
#include "support/repo_fixture.h"
#include "support/tree_snapshot.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::RepoFixture;
using folio::testing::TreeSnapshot;

namespace {

// A repository with a folder chain whose path is near Rule P1's limit, a document `a.txt`
// at its bottom and another, `b.txt`, beside it, and `c.txt` in the root folder.
struct NearTheLimit {
  RepoFixture f;
  std::string deep_id;
  std::string deep_path;  // repository-relative
  ObjectData a, b, c;

  NearTheLimit() {
    std::string parent = f.root;
    // 15 folders of 250 bytes: 3,765 bytes of path, room for a name of 234 bytes below.
    for (int i = 0; i < 15; ++i) {
      const std::string name = std::string(249, 'd') + static_cast<char>('a' + i);
      parent = f.Folder(parent, name).id;
      deep_path += (deep_path.empty() ? "" : "/") + name;
    }
    deep_id = parent;
    a = f.Doc(deep_id, "a.txt", "one");
    b = f.Doc(deep_id, "b.txt", "two");
    c = f.Doc(f.root, "c.txt", "three");
  }

  // A name that is valid but puts a document in the deep folder past the limit.
  std::string TooLongThere() const { return std::string(storage::kMaxPathBytes - deep_path.size(), 'n'); }
};

struct Limit {
  const char* what;
  std::string name;
  ErrorKind kind;
  std::string culprit;  // what the message names
};

std::vector<Limit> Limits(const NearTheLimit& t) {
  return {
      {"a name too long", std::string(storage::kMaxNameBytes + 1, 'x'), ErrorKind::kNameConstraintViolation, "255"},
      {"a name taken", "b.txt", ErrorKind::kNameConstraintViolation, "b.txt"},
      {"a path too long", t.TooLongThere(), ErrorKind::kConstraint, std::to_string(storage::kMaxPathBytes)},
  };
}

void CheckFailure(const Status& s, const Limit& limit) {
  INFO(limit.what << ": " << s.ToString());
  CHECK(s.kind() == limit.kind);
  CHECK(Contains(s.message(), limit.culprit));
}

}  // namespace

TEST_CASE("Relocation: a rename that breaks a limit changes nothing") {
  NearTheLimit t;
  for (const Limit& limit : Limits(t)) {
    const std::string before = TreeSnapshot(t.f.RepoPath());
    auto r = t.f.repo->UpdateProperties(t.a.id, Json{{"cmis:name", limit.name}}, "alice", WriteCheck::Trusted());
    REQUIRE_FALSE(r.ok());
    CheckFailure(r.status(), limit);
    CHECK(TreeSnapshot(t.f.RepoPath()) == before);
  }
  // The same names are taken where they fit.
  auto ok = t.f.repo->UpdateProperties(t.a.id, Json{{"cmis:name", "a2.txt"}}, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(ok.ok(), ok.status().ToString());
  CHECK(t.f.Visible(t.deep_path + "/a2.txt") == "one");
}

TEST_CASE("Relocation: a move that breaks a limit changes nothing") {
  NearTheLimit t;
  for (const Limit& limit : Limits(t)) {
    // The document of the limit's name, in the root folder, moves into the deep folder.
    if (limit.name != "b.txt") {
      auto named = t.f.repo->UpdateProperties(t.c.id, Json{{"cmis:name", limit.name}}, "alice", WriteCheck::Trusted());
      if (!named.ok()) {
        // A name no object can have is refused by the rename already (tested above);
        // a move keeps the name, so it cannot meet that limit.
        CHECK(named.status().kind() == ErrorKind::kNameConstraintViolation);
        continue;
      }
    } else {
      REQUIRE(t.f.repo->UpdateProperties(t.c.id, Json{{"cmis:name", "b.txt"}}, "alice", WriteCheck::Trusted()).ok());
    }
    const std::string before = TreeSnapshot(t.f.RepoPath());
    auto r = t.f.repo->Move(t.c.id, t.deep_id, t.f.root, "alice", WriteCheck::Trusted());
    REQUIRE_FALSE(r.ok());
    CheckFailure(r.status(), limit);
    CHECK(TreeSnapshot(t.f.RepoPath()) == before);
  }
  REQUIRE(t.f.repo->UpdateProperties(t.c.id, Json{{"cmis:name", "c.txt"}}, "alice", WriteCheck::Trusted()).ok());
  auto ok = t.f.repo->Move(t.c.id, t.deep_id, t.f.root, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(ok.ok(), ok.status().ToString());
  CHECK(t.f.Visible(t.deep_path + "/c.txt") == "three");
}

TEST_CASE("Relocation: a check-in with a new name that breaks a limit changes nothing") {
  NearTheLimit t;
  auto pwc = t.f.repo->CheckOut(t.a.id, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  for (const Limit& limit : Limits(t)) {
    for (const bool with_content : {false, true}) {
      const std::string before = TreeSnapshot(t.f.RepoPath());
      CheckInRequest req;
      req.properties = Json{{"cmis:name", limit.name}};
      if (with_content) req.content = ContentSource::FromBytes("new", "text/plain");
      auto r = t.f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
      REQUIRE_FALSE(r.ok());
      CheckFailure(r.status(), limit);
      CHECK(TreeSnapshot(t.f.RepoPath()) == before);
    }
  }
  CheckInRequest req;
  req.properties = Json{{"cmis:name", "a2.txt"}};
  auto ok = t.f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(ok.ok(), ok.status().ToString());
  CHECK(t.f.Visible(t.deep_path + "/a2.txt") == "one");
  CHECK_FALSE(t.f.Has(t.deep_path + "/a.txt"));
}
