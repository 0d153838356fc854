// A test's way to add a version to a document series: check out, check in.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "support/repo_fixture.h"

namespace folio::testing {

// Checks out the latest version of the series of `id` as bob and checks it in (major or
// minor) with `bytes` as its text content; returns the new version.
inline ObjectData NextVersion(RepoFixture& f, const std::string& id, bool major, const std::string& bytes) {
  auto pwc = f.repo->CheckOut(id, "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  CheckInRequest req;
  req.major = major;
  req.content = ContentSource::FromBytes(bytes, "text/plain");
  auto v = f.repo->CheckIn(pwc->id, req, "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(v.ok(), v.status().ToString());
  return *v;
}

}  // namespace folio::testing
