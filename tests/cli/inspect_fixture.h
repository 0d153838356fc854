// A small repository for the inspect tests, made at a fixed time so that dates in
// the output are known: docs/a.txt (versions 1.0, 1.1, 2.0, 2.1), docs/b.txt
// (checked out by bob, working copy edited), readme.md, the item "contact" and the
// relationship "refers" (readme.md -> docs/a.txt).
#pragma once

#include <optional>

#include "storage/datetime.h"
#include "support/repo_fixture.h"

namespace folio::testing {

inline constexpr int64_t kInspectTime = 1709287200000;  // 2024-03-01T10:00:00.000Z

// Fixes the engine's clock for the lifetime of the object.
struct FixedClock {
  explicit FixedClock(int64_t ms) { storage::SetClockForTest(ms); }
  ~FixedClock() { storage::SetClockForTest(std::nullopt); }
  FixedClock(const FixedClock&) = delete;
  FixedClock& operator=(const FixedClock&) = delete;
};

struct InspectFixture {
  FixedClock clock{kInspectTime};  // first: the fixture's dates come from it
  RepoFixture f;
  ObjectData docs, a, b, readme, contact, refers;

  InspectFixture() {
    docs = f.Folder(f.root, "docs");
    a = f.Doc(docs.id, "a.txt", "v1");
    a = CheckIn(a, "alice", false, "second draft", "v1.1");
    a = CheckIn(a, "carol", true, "approved", "v2.0");
    a = CheckIn(a, "alice", false, "typo", "v2.1");
    b = f.Doc(docs.id, "b.txt", "b");
    auto pwc = f.repo->CheckOut(b.id, "bob", WriteCheck::Trusted());
    REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
    REQUIRE(f.repo->SetContent(pwc->id, ContentSource::FromBytes("draft b"), true, "bob", WriteCheck::Trusted()).ok());
    readme = f.Doc(f.root, "readme.md", "hello");
    NewObject item;
    item.name = "contact";
    auto i = f.repo->CreateItem(f.root, item, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(i.ok(), i.status().ToString());
    contact = *i;
    NewObject rel;
    rel.name = "refers";
    rel.properties = Json{{"cmis:sourceId", readme.series_id}, {"cmis:targetId", a.series_id}};
    auto r = f.repo->CreateRelationship(rel, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    refers = *r;
  }

  ObjectData CheckIn(const ObjectData& doc, const std::string& user, bool major, const std::string& comment,
                     const std::string& bytes) {
    auto pwc = f.repo->CheckOut(doc.id, user, WriteCheck::Trusted());
    REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
    CheckInRequest req;
    req.major = major;
    req.comment = comment;
    req.content = ContentSource::FromBytes(bytes, "text/plain");
    auto v = f.repo->CheckIn(pwc->id, req, user, WriteCheck::Trusted());
    REQUIRE_MESSAGE(v.ok(), v.status().ToString());
    return *v;
  }

  // A read-only store on the fixture's data directory, as folio inspect opens it.
  std::unique_ptr<Store> ReadOnlyStore() {
    auto s = Store::Open(f.dir.path(), {.read_only = true, .create = false});
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    return std::move(*s);
  }
};

}  // namespace folio::testing
