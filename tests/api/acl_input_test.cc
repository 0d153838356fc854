// ReadAclChanges and ReadAclPropagation: both ACE conventions, checked; propagation
// and its CmisJS alias.
#include <doctest/doctest.h>

#include "api/acl_input.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::api;
using folio::testing::Contains;

namespace {

Params Form(std::vector<std::pair<std::string, std::string>> fields) {
  Request r;
  r.method = "GET";
  r.query = std::move(fields);
  auto p = Params::FromRequest(r);
  REQUIRE(p.ok());
  return std::move(*p);
}

Params JsonBody(const std::string& body) {
  Request r;
  r.method = "POST";
  r.content_type = "application/json";
  r.body = body;
  auto p = Params::FromRequest(r);
  REQUIRE(p.ok());
  return std::move(*p);
}

}  // namespace

TEST_CASE("AclInput: the form convention and JSON give the same entries") {
  const Params form = Form({{"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "cmis:read"},
                            {"addACEPermission[0][1]", "cmis:write"}, {"removeACEPrincipal[0]", "cmis:anyone"},
                            {"removeACEPermission[0][0]", "cmis:read"}, {"propagation", "objectonly"}});
  const Params json = JsonBody(R"({"addACEs": [{"principal": {"principalId": "bob"},
                                                "permissions": ["cmis:read", "cmis:write"]}],
                                   "removeACEs": [{"principal": {"principalId": "cmis:anyone"},
                                                   "permissions": ["cmis:read"]}],
                                   "ACLPropagation": "objectonly"})");
  for (const Params* p : {&form, &json}) {
    auto c = ReadAclChanges(*p, nullptr);
    REQUIRE_MESSAGE(c.ok(), c.status().ToString());
    REQUIRE(c->add.size() == 1);
    CHECK(c->add[0].principal == "bob");
    CHECK(c->add[0].permissions == std::vector<std::string>{"cmis:read", "cmis:write"});
    REQUIRE(c->remove.size() == 1);
    CHECK(c->remove[0].principal == "cmis:anyone");
    CHECK(c->propagation == AclPropagation::kObjectOnly);
  }
}

TEST_CASE("AclInput: unsupported permissions are constraint; unknown principals invalidArgument") {
  auto custom = ReadAclChanges(Form({{"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "acme:approve"}}), nullptr);
  CHECK(custom.status().kind() == ErrorKind::kConstraint);
  CHECK(Contains(custom.status().message(), "acme:approve"));
  acl::UserRecord bob;
  bob.id = "bob";
  const acl::Principals domain({bob}, {});
  auto ghost = ReadAclChanges(Form({{"addACEPrincipal[0]", "ghost"}, {"addACEPermission[0][0]", "cmis:read"}}), &domain);
  CHECK(ghost.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(ghost.status().message(), "'ghost'"));
  CHECK(ReadAclChanges(Form({{"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "cmis:read"}}), &domain).ok());
}

TEST_CASE("AclInput: propagation, its CmisJS alias, and what is refused") {
  CHECK(ReadAclPropagation(Form({})).value() == AclPropagation::kRepositoryDetermined);
  CHECK(ReadAclPropagation(Form({{"ACLPropagation", "OBJECTONLY"}})).value() == AclPropagation::kObjectOnly);
  CHECK(ReadAclPropagation(Form({{"propagation", "repositorydetermined"}})).value() ==
        AclPropagation::kRepositoryDetermined);
  CHECK(ReadAclPropagation(Form({{"ACLPropagation", "objectonly"}, {"propagation", "objectonly"}})).ok());
  auto differ = ReadAclPropagation(Form({{"ACLPropagation", "objectonly"}, {"propagation", "repositorydetermined"}}));
  CHECK(differ.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(ReadAclPropagation(Form({{"propagation", "Propagate"}})).value() == AclPropagation::kPropagate);
  CHECK(ReadAclPropagation(Form({{"ACLPropagation", "propagate"}, {"propagation", "propagate"}})).ok());
  auto bad = ReadAclPropagation(Form({{"ACLPropagation", "sideways"}}));
  CHECK(bad.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(bad.status().message(), "sideways"));
}
