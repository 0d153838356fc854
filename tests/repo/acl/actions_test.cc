// acl::RequirementOf and the aclCapabilities repositoryInfo announces.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "repo/acl/actions.h"

using namespace folio::acl;

TEST_CASE("Actions: read for reads, write for changes, all for applyACL") {
  CHECK(RequirementOf(Action::kRead).object == Permission::kRead);
  for (Action a : {Action::kUpdateProperties, Action::kSetContent, Action::kDeleteContent, Action::kDelete,
                   Action::kDeleteTree, Action::kCheckOut, Action::kCheckIn, Action::kCancelCheckOut,
                   Action::kCreateChild}) {
    CHECK(RequirementOf(a).object == Permission::kWrite);
    CHECK(RequirementOf(a).source == Permission::kNone);
    CHECK(RequirementOf(a).target == Permission::kNone);
  }
  const Requirement move = RequirementOf(Action::kMove);
  CHECK(move.object == Permission::kWrite);
  CHECK(move.source == Permission::kWrite);
  CHECK(move.target == Permission::kWrite);
  CHECK(RequirementOf(Action::kApplyAcl).object == Permission::kAll);
  CHECK(RequirementOf(Action::kCreateRelationship).source == Permission::kRead);
  CHECK(RequirementOf(Action::kCreateRelationship).target == Permission::kRead);
}

TEST_CASE("Capabilities: manage, basic, propagate, the three permissions and every mapping key of CMIS") {
  const AclCapabilities& c = Capabilities();
  CHECK(c.capability == "manage");
  CHECK(c.supported_permissions == "basic");
  CHECK(c.propagation == "propagate");
  REQUIRE(c.permissions.size() == 3);
  CHECK(c.permissions[0].permission == "cmis:read");
  CHECK(c.permissions[2].permission == "cmis:all");
  // Binding §9.3, with its spellings ("Descendents", "Checkout").
  const std::set<std::string> expected = {
      "canGetDescendents.Folder", "canGetChildren.Folder", "canGetParents.Folder", "canGetFolderParent.Object",
      "canCreateDocument.Folder", "canCreateFolder.Folder", "canCreatePolicy.Folder",
      "canCreateRelationship.Source", "canCreateRelationship.Target", "canGetProperties.Object",
      "canViewContent.Object", "canUpdateProperties.Object", "canMove.Object", "canMove.Target", "canMove.Source",
      "canDelete.Object", "canDeleteTree.Folder", "canSetContent.Document", "canDeleteContent.Document",
      "canAddToFolder.Object", "canAddToFolder.Folder", "canRemoveFromFolder.Object", "canRemoveFromFolder.Folder",
      "canCheckout.Document", "canCancelCheckout.Document", "canCheckin.Document",
      "canGetAllVersions.VersionSeries", "canGetObjectRelationships.Object", "canAddPolicy.Object",
      "canAddPolicy.Policy", "canRemovePolicy.Object", "canRemovePolicy.Policy", "canGetAppliedPolicies.Object",
      "canGetACL.Object", "canApplyACL.Object"};
  std::set<std::string> keys;
  for (const PermissionMapping& m : c.mapping) {
    keys.insert(std::string(m.key));
    CHECK(m.permission != Permission::kNone);
  }
  CHECK(keys == expected);
  CHECK(c.mapping.size() == expected.size());
  auto permission_of = [&](std::string_view key) {
    for (const PermissionMapping& m : c.mapping) {
      if (m.key == key) return m.permission;
    }
    return Permission::kNone;
  };
  CHECK(permission_of("canGetChildren.Folder") == Permission::kRead);
  CHECK(permission_of("canCreateDocument.Folder") == Permission::kWrite);
  CHECK(permission_of("canCheckout.Document") == Permission::kWrite);
  CHECK(permission_of("canMove.Target") == Permission::kWrite);
  CHECK(permission_of("canApplyACL.Object") == Permission::kAll);
  CHECK(permission_of("canGetACL.Object") == Permission::kRead);
}
