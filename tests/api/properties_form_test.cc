#include "api/properties_form.h"

#include <doctest/doctest.h>

#include <string>

#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;
using testing::FormRequest;
using testing::JsonRequest;

Params MustParse(const Request& request) {
  Result<Params> params = Params::FromRequest(request);
  REQUIRE_MESSAGE(params.ok(), params.status().ToString());
  return std::move(params).value();
}

Json MustRead(const Request& request) {
  Result<Json> properties = ReadProperties(MustParse(request));
  REQUIRE_MESSAGE(properties.ok(), properties.status().ToString());
  return std::move(properties).value();
}

TEST_CASE("ReadProperties: JSON object and form convention give the same ordered result") {
  const Json expected = Json::parse(
      R"({"cmis:name": "Reports", "cmis:objectTypeId": "cmis:folder", "my:tags": ["red", "blue"],
          "cmis:description": null})");
  Json properties;
  SUBCASE("json body") {
    properties = MustRead(JsonRequest(
        R"({"properties": {"name": "Reports", "cmis:objectTypeId": "folder",
            "my:tags": ["red", "blue"], "description": null}})"));
  }
  SUBCASE("properties as a form field") {
    properties = MustRead(FormRequest(
        "properties=%7B%22cmis%3Aname%22%3A%22Reports%22%2C%22objectTypeId%22%3A%22cmis%3Afolder"
        "%22%2C%22my%3Atags%22%3A%5B%22red%22%2C%22blue%22%5D%2C%22cmis%3Adescription%22%3Anull%"
        "7D"));
  }
  SUBCASE("form convention") {
    properties = MustRead(
        FormRequest("propertyId%5B0%5D=cmis%3Aname&propertyValue%5B0%5D=Reports"
                    "&propertyId%5B1%5D=objectTypeId&propertyValue%5B1%5D=cmis%3Afolder"
                    "&propertyId%5B2%5D=my%3Atags&propertyValue%5B2%5D%5B1%5D=blue"
                    "&propertyValue%5B2%5D%5B0%5D=red&propertyId%5B3%5D=cmis%3Adescription"));
  }
  SUBCASE("form convention in multipart, content first, names in other cases") {
    Request request;
    request.content_type = "multipart/form-data; boundary=b";
    request.form_fields = {{"PROPERTYID[0]", "cmis:name"},
                           {"propertyvalue[0]", "Reports"},
                           {"propertyId[1]", "cmis:objectTypeId"},
                           {"propertyValue[1]", "folder"},
                           {"propertyId[2]", "my:tags"},
                           {"propertyValue[2][0]", "red"},
                           {"propertyValue[2][1]", "blue"},
                           {"propertyId[3]", "description"},
                           {"propertyValue[3]", ""}};
    properties = MustRead(request);
  }
  CHECK(properties == expected);
  CHECK(properties.begin().key() == "cmis:name");
}

TEST_CASE("ReadProperties: none given is an empty object") {
  CHECK(MustRead(FormRequest("cmisaction=update")).empty());
}

TEST_CASE("ReadProperties: JSON values keep their type; [] means not set") {
  const Json properties = MustRead(JsonRequest(
      R"({"properties": {"acme:amount": 12.5, "acme:ok": true, "acme:list": [],
          "cmis:secondaryObjectTypeIds": ["secondary", "acme:tagged"]}})"));
  CHECK(properties["acme:amount"] == 12.5);
  CHECK(properties["acme:ok"] == true);
  CHECK(properties["acme:list"].is_null());
  CHECK(properties["cmis:secondaryObjectTypeIds"] ==
        Json::array({"cmis:secondary", "acme:tagged"}));
}

TEST_CASE("ReadProperties: malformed input is invalidArgument, naming the culprit") {
  struct Case {
    Request request;
    std::string_view culprit;
  };
  const Case cases[] = {
      {FormRequest("propertyId%5B0%5D=cmis:name&propertyId%5B2%5D=x"),
       "propertyId[N] has gaps: 'propertyId[1]' is missing"},
      {FormRequest("propertyId%5B1%5D=cmis:name"), "'propertyId[0]' is missing"},
      {FormRequest(
           "propertyId%5B0%5D=my:tags&propertyValue%5B0%5D%5B0%5D=a&propertyValue%5B0%5D%5B2%5D=c"),
       "propertyValue[0][M] has gaps: 'propertyValue[0][1]' is missing"},
      {FormRequest("propertyId%5B0%5D=a&propertyValue%5B1%5D=x"),
       "'propertyValue[1]' has no 'propertyId[1]'"},
      {FormRequest("propertyId%5B0%5D=a&propertyValue%5B0%5D=x&propertyValue%5B0%5D%5B0%5D=y"),
       "property 'a' has both 'propertyValue[0]' and 'propertyValue[0][0]'"},
      {FormRequest("propertyId%5Bx%5D=a"), "malformed form control 'propertyId[x]'"},
      {FormRequest("propertyId%5B01%5D=a"), "malformed form control 'propertyId[01]'"},
      {FormRequest("propertyId%5B0%5D%5B0%5D=a"), "malformed form control 'propertyId[0][0]'"},
      {FormRequest("propertyValue%5B0%5Dx=a"), "malformed form control 'propertyValue[0]x'"},
      {FormRequest("propertyId%5B0%5D=&propertyValue%5B0%5D=x"), "'propertyId[0]' is empty"},
      {FormRequest("propertyId%5B0%5D=name&propertyId%5B1%5D=cmis:name"),
       "property 'cmis:name' is given twice"},
      {JsonRequest(R"({"properties": {"name": "a", "cmis:name": "b"}})"),
       "property 'cmis:name' is given twice"},
      {JsonRequest(R"({"properties": {"acme:x": {"value": 1}}})"),
       "property 'acme:x' must be a value, an array of values or null, got an object"},
      {JsonRequest(R"({"properties": {"acme:x": [1, [2]]}})"),
       "property 'acme:x' holds an array with an array"},
      {JsonRequest(R"({"properties": {"acme:x": [null]}})"),
       "property 'acme:x' holds an array with null"},
      {JsonRequest(R"({"properties": {"": "a"}})"), "a property id is empty"},
      {JsonRequest(R"({"properties": {"a": "b"}, "propertyId[0]": "c"})"),
       "properties are given both as 'properties' and as propertyId[N]"},
      {JsonRequest(R"({"propertyId[0]": ["a"]})"), "form control 'propertyId[0]' must be a string"},
      {JsonRequest(R"({"properties": "nope"})"), "parameter 'properties' is not valid JSON"},
  };
  for (const Case& c : cases) {
    Result<Json> properties = ReadProperties(MustParse(c.request));
    REQUIRE_MESSAGE(!properties.ok(), c.culprit);
    CHECK(properties.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(properties.status().message(), c.culprit),
                  properties.status().message());
  }
}

TEST_CASE("ReadProperties: more than 1000 properties is a constraint error") {
  SUBCASE("json") {
    Json properties = Json::object();
    for (int i = 0; i <= 1000; ++i) properties["acme:p" + std::to_string(i)] = "v";
    Result<Json> read =
        ReadProperties(MustParse(JsonRequest(Json{{"properties", properties}}.dump())));
    CHECK(read.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(read.status().message(), "too many properties: 1001 given, at most 1000"));
  }
  SUBCASE("form") {
    std::string body;
    for (int i = 0; i <= 1000; ++i)
      body += "&propertyId%5B" + std::to_string(i) + "%5D=acme:p" + std::to_string(i);
    Result<Json> read = ReadProperties(MustParse(FormRequest(body)));
    CHECK(read.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(read.status().message(), "too many properties: 1001 given"));
  }
  SUBCASE("exactly 1000 is fine") {
    Json properties = Json::object();
    for (int i = 0; i < 1000; ++i) properties["acme:p" + std::to_string(i)] = "v";
    CHECK(ReadProperties(MustParse(JsonRequest(Json{{"properties", properties}}.dump()))).ok());
  }
}

TEST_CASE("ReadAces: JSON and form convention give the same entries") {
  const std::vector<Ace> expected = {{"alice", {"cmis:read", "cmis:write"}}, {"bob", {"cmis:all"}}};
  Params params = MustParse(JsonRequest("{}"));
  SUBCASE("json array") {
    params = MustParse(JsonRequest(
        R"({"addACEs": [{"principal": {"principalId": "alice"}, "permissions": ["cmis:read", "cmis:write"]},
                        {"principal": "bob", "permissions": "cmis:all"}]})"));
  }
  SUBCASE("json in a form field") {
    params = MustParse(FormRequest(
        "addACEs=%5B%7B%22principal%22%3A%7B%22principalId%22%3A%22alice%22%7D%2C%22permissions%22%"
        "3A"
        "%5B%22cmis%3Aread%22%2C%22cmis%3Awrite%22%5D%7D%2C%7B%22principal%22%3A%7B%22principalId"
        "%22%3A%22bob%22%7D%2C%22permissions%22%3A%5B%22cmis%3Aall%22%5D%7D%5D"));
  }
  SUBCASE("form convention") {
    params = MustParse(FormRequest(
        "addACEPrincipal%5B0%5D=alice&addACEPermission%5B0%5D%5B0%5D=cmis:read"
        "&addACEPermission%5B0%5D%5B1%5D=cmis:write&addACEPrincipal%5B1%5D=bob"
        "&addACEPermission%5B1%5D%5B0%5D=cmis:all"
        "&removeACEPrincipal%5B0%5D=carol&removeACEPermission%5B0%5D%5B0%5D=cmis:read"));
    const Result<std::vector<Ace>> removed = ReadAces(params, AceList::kRemove);
    REQUIRE(removed.ok());
    CHECK(*removed == std::vector<Ace>{{"carol", {"cmis:read"}}});
  }
  Result<std::vector<Ace>> aces = ReadAces(params, AceList::kAdd);
  REQUIRE_MESSAGE(aces.ok(), aces.status().ToString());
  CHECK(*aces == expected);
}

TEST_CASE("ReadAces: none given is empty") {
  CHECK(ReadAces(MustParse(FormRequest("a=b")), AceList::kAdd)->empty());
  CHECK(ReadAces(MustParse(FormRequest("a=b")), AceList::kRemove)->empty());
}

TEST_CASE("ReadAces: malformed entries are invalidArgument, naming the entry") {
  struct Case {
    Request request;
    AceList which;
    std::string_view culprit;
  };
  const Case cases[] = {
      {JsonRequest(R"({"addACEs": [{"permissions": ["cmis:read"]}]})"), AceList::kAdd,
       "addACEs[0] has no principal"},
      {JsonRequest(R"({"addACEs": [{"principal": {"principalId": "a"}}]})"), AceList::kAdd,
       "addACEs[0] for principal 'a' has no permissions"},
      {JsonRequest(R"({"removeACEs": [{"principal": "a", "permissions": ["x"]}, 5]})"),
       AceList::kRemove, "removeACEs[1] must be an object, got a number"},
      {JsonRequest(R"({"addACEs": [{"principal": "a", "permissions": [1]}]})"), AceList::kAdd,
       "addACEs[0].permissions must hold strings, got a number"},
      {JsonRequest(R"({"addACEs": [{"principal": "a", "permissions": [""]}]})"), AceList::kAdd,
       "addACEs[0] has an empty permission"},
      {JsonRequest(R"({"addACEs": {"principal": "a"}})"), AceList::kAdd,
       "parameter 'addACEs' must be a JSON array, got an object"},
      {FormRequest("addACEPrincipal%5B1%5D=a&addACEPermission%5B1%5D%5B0%5D=cmis:read"),
       AceList::kAdd, "addACEPrincipal[N] has gaps: 'addACEPrincipal[0]' is missing"},
      {FormRequest("addACEPrincipal%5B0%5D=a"), AceList::kAdd,
       "'addACEPrincipal[0]' ('a') has no 'addACEPermission[0][0]'"},
      {FormRequest("addACEPrincipal%5B0%5D=a&addACEPermission%5B0%5D%5B1%5D=cmis:read"),
       AceList::kAdd, "addACEPermission[0][M] has gaps: 'addACEPermission[0][0]' is missing"},
      {FormRequest("addACEPrincipal%5B0%5D=a&addACEPermission%5B0%5D%5B0%5D=x&addACEPermission%5B1%"
                   "5D%5B0%5D=y"),
       AceList::kAdd, "'addACEPermission[1][0]' has no 'addACEPrincipal[1]'"},
      {FormRequest("addACEPrincipal%5B0%5D=a&addACEPermission%5B0%5D=cmis:read"), AceList::kAdd,
       "malformed form control 'addACEPermission[0]': expected addACEPermission[N][M]"},
      {FormRequest("removeACEPrincipal%5B0%5D=&removeACEPermission%5B0%5D%5B0%5D=x"),
       AceList::kRemove, "'removeACEPrincipal[0]' is empty"},
      {FormRequest("addACEs=%5B%5D&addACEPrincipal%5B0%5D=a&addACEPermission%5B0%5D%5B0%5D=x"),
       AceList::kAdd, "ACEs are given both as 'addACEs' and as addACEPrincipal[N]"},
  };
  for (const Case& c : cases) {
    Result<std::vector<Ace>> aces = ReadAces(MustParse(c.request), c.which);
    REQUIRE_MESSAGE(!aces.ok(), c.culprit);
    CHECK(aces.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(aces.status().message(), c.culprit), aces.status().message());
  }
}

TEST_CASE("StripJsonQuotes: removes one pair of JSON quotes, as CmisJS sends type ids") {
  struct Case {
    std::string_view in;
    std::string_view out;
  };
  const Case cases[] = {
      {"\"acme:x\"", "acme:x"},
      {"acme:x", "acme:x"},
      {"\"\"", ""},
      {"\"", "\""},
      {"\"a\\\"b\"", "a\"b"},
      {"\"a", "\"a"},
      {"\"bad\\q\"", "bad\\q"},
  };
  for (const Case& c : cases) CHECK_MESSAGE(StripJsonQuotes(c.in) == c.out, c.in);
}

TEST_CASE("ReadIndexedStrings: objectId[N] in index order; gaps, bad names and too many refused") {
  auto ids = ReadIndexedStrings(MustParse(FormRequest("objectId%5B1%5D=b&OBJECTID%5B0%5D=a&other=x")), "objectId", 10);
  REQUIRE(ids.ok());
  CHECK(*ids == std::vector<std::string>{"a", "b"});
  CHECK(ReadIndexedStrings(MustParse(FormRequest("x=1")), "objectId", 10)->empty());
  auto gap = ReadIndexedStrings(MustParse(FormRequest("objectId%5B1%5D=b")), "objectId", 10);
  CHECK(Contains(gap.status().message(), "'objectId[0]' is missing"));
  auto sparse =
      ReadIndexedStrings(MustParse(FormRequest("changeToken%5B2%5D=t")), "changeToken", 10, IndexGaps::kAllowed);
  CHECK(*sparse == std::vector<std::string>{"", "", "t"});
  CHECK(ReadIndexedStrings(MustParse(FormRequest("changeToken%5B20%5D=t")), "changeToken", 10, IndexGaps::kAllowed)
            .status()
            .kind() == ErrorKind::kConstraint);
  CHECK(ReadIndexedStrings(MustParse(FormRequest("objectId%5Bx%5D=a")), "objectId", 10).status().kind() ==
        ErrorKind::kInvalidArgument);
  CHECK(ReadIndexedStrings(MustParse(FormRequest("objectId%5B0%5D%5B0%5D=a")), "objectId", 10).status().kind() ==
        ErrorKind::kInvalidArgument);
  CHECK(ReadIndexedStrings(MustParse(FormRequest("objectId%5B0%5D=a&objectId%5B1%5D=b")), "objectId", 1)
            .status()
            .kind() == ErrorKind::kConstraint);
  CHECK(ReadIndexedStrings(MustParse(JsonRequest(R"({"objectId[0]": {"a": 1}})")), "objectId", 10).status().kind() ==
        ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace folio::api
