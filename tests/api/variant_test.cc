#include "api/variant.h"

#include <doctest/doctest.h>

#include <string>

#include "api/cmis_names.h"
#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;

TEST_CASE("ParseVariant: A or B in any case; anything else names the value") {
  CHECK(*ParseVariant("A") == Variant::kA);
  CHECK(*ParseVariant("a") == Variant::kA);
  CHECK(*ParseVariant("B") == Variant::kB);
  CHECK(*ParseVariant("b") == Variant::kB);
  for (const std::string_view bad : {"", "C", "AB", " A", "variantA"}) {
    Result<Variant> variant = ParseVariant(bad);
    REQUIRE_MESSAGE(!variant.ok(), bad);
    CHECK(variant.status().kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(variant.status().message(),
                   "variant must be A or B, got '" + std::string(bad) + "'"));
  }
  CHECK(VariantName(Variant::kA) == "A");
  CHECK(VariantName(Variant::kB) == "B");
}

TEST_CASE("ToResponseId: variant A drops the prefix of built-in ids only") {
  struct Case {
    std::string_view canonical;
    std::string_view a;
  };
  const Case cases[] = {
      {"cmis:name", "name"},
      {"cmis:objectId", "objectId"},
      {"cmis:objectTypeId", "objectTypeId"},
      {"cmis:versionLabel", "versionLabel"},
      {"cmis:isLatestVersion", "isLatestVersion"},
      {"cmis:versionSeriesCheckedOutBy", "versionSeriesCheckedOutBy"},
      {"cmis:secondaryObjectTypeIds", "secondaryObjectTypeIds"},
      {"cmis:document", "document"},
      {"cmis:folder", "folder"},
      {"cmis:item", "item"},
      {"cmis:relationship", "relationship"},
      {"cmis:policy", "policy"},
      {"cmis:secondary", "secondary"},
      {"acme:amount", "acme:amount"},
      {"title", "title"},
      {"cmis:read", "cmis:read"},      // a permission, not a property or type id
      {"cmis:anyone", "cmis:anyone"},  // a principal
      {"cmis:unknownThing", "cmis:unknownThing"},
      {"", ""},
  };
  for (const Case& c : cases) {
    CHECK_MESSAGE(ToResponseId(Variant::kA, c.canonical) == c.a, c.canonical);
    CHECK_MESSAGE(ToResponseId(Variant::kB, c.canonical) == c.canonical, c.canonical);
  }
}

TEST_CASE("ToCanonicalPropertyId/TypeId: both spellings are accepted") {
  for (const std::string_view id : kBuiltinPropertyIds) {
    const std::string_view bare = id.substr(kCmisPrefix.size());
    CHECK(ToCanonicalPropertyId(id) == id);
    CHECK(ToCanonicalPropertyId(bare) == id);
    CHECK(ToResponseId(Variant::kA, id) == bare);
    CHECK(ToCanonicalPropertyId(ToResponseId(Variant::kA, id)) == id);
  }
  for (const std::string_view id : kBuiltinTypeIds) {
    const std::string_view bare = id.substr(kCmisPrefix.size());
    CHECK(ToCanonicalTypeId(id) == id);
    CHECK(ToCanonicalTypeId(bare) == id);
    CHECK(ToCanonicalTypeId(ToResponseId(Variant::kA, id)) == id);
  }
  // Custom ids, the other namespace and other cases pass through.
  const std::string_view unchanged[] = {"acme:amount", "title", "Name", "NAME", "cmis:Name", ""};
  for (const std::string_view id : unchanged) {
    CHECK(ToCanonicalPropertyId(id) == id);
    CHECK(ToCanonicalTypeId(id) == id);
  }
  CHECK(ToCanonicalPropertyId("document") == "document");  // a type id, not a property
  CHECK(ToCanonicalTypeId("name") == "name");              // a property id, not a type
}

TEST_CASE("DefaultSuccinct: A is succinct, B is detailed") {
  CHECK(DefaultSuccinct(Variant::kA));
  CHECK(!DefaultSuccinct(Variant::kB));
}

}  // namespace
}  // namespace folio::api
