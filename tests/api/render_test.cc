// JsonWriter (same text as nlohmann's dump) and the Renderer (both variants, both
// property forms, filters, dates).
#include "api/render.h"

#include <doctest/doctest.h>

#include "api/json_writer.h"

namespace folio::api {
namespace {

RenderOptions Options(Variant variant, bool succinct) {
  RenderOptions o;
  o.variant = variant;
  o.succinct = succinct;
  return o;
}

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string Written(const Json& j) {
  std::string out;
  JsonWriter(out).Value(j);
  return out;
}

TEST_CASE("JsonWriter: prints what Json::dump prints") {
  const Json values[] = {
      nullptr, true, false, 0, -1, INT64_MAX, INT64_MIN, 18446744073709551615ull, 1.5, -0.25, 1e300,
      "", "plain ascii", "quote \" and backslash \\", "control \x01\x1f\n\t\r\b\f", "del \x7f",
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "bad utf-8 \xff\xfe end", "truncated \xc3",
      Json::array(), Json::object(), Json::array({1, "a", nullptr, Json::array({true})}),
      Json{{"k", "v"}, {"n", Json::array({1, 2})}, {"\xc3\xa9", Json::object()}},
  };
  for (const Json& v : values) {
    CAPTURE(Dump(v));
    CHECK(Written(v) == Dump(v));
  }
}

TEST_CASE("JsonWriter: containers, keys and separators") {
  std::string out;
  JsonWriter w(out);
  w.BeginObject().Key("a").Int(1).Key("b").BeginArray().String("x").Null().Bool(true).EndArray();
  w.Key("c").BeginObject().EndObject().Key("d").Raw("[1,2]").Key("e\"").String("\xc3\xa9").EndObject();
  CHECK(out == R"({"a":1,"b":["x",null,true],"c":{},"d":[1,2],"e\"":"é"})");
  CHECK(Json::parse(out)["e\""] == "\xc3\xa9");
  std::string quoted;
  JsonWriter(quoted).String("a\"b");
  CHECK(quoted == R"("a\"b")");
}

TEST_CASE("ParseFilter: ids in either spelling, * for all, bad entries refused") {
  auto f = ParseFilter(" name , cmis:versionLabel,acme:x ");
  REQUIRE(f.ok());
  REQUIRE(f->has_value());
  CHECK((*f)->count("cmis:name") == 1);
  CHECK((*f)->count("cmis:versionLabel") == 1);
  CHECK((*f)->count("acme:x") == 1);
  CHECK(!ParseFilter("*")->has_value());
  CHECK(!ParseFilter("")->has_value());
  CHECK(ParseFilter("a b").status().kind() == ErrorKind::kFilterNotValid);
}

ObjectData Sample() {
  ObjectData o;
  o.type_id = "cmis:document";
  o.properties = {{"cmis:name", "a"},
                  {"cmis:objectTypeId", "cmis:document"},
                  {"cmis:creationDate", 1700000000123},
                  {"acme:x", 1},
                  {"acme:tags", Json::array({"p", "q"})},
                  {"cmis:description", nullptr}};
  return o;
}

Json Render(Renderer& r, const ObjectData& o, const Json* actions = nullptr) {
  std::string out;
  JsonWriter w(out);
  r.WriteObject(o, w, actions);
  return Json::parse(out);
}

TEST_CASE("Renderer: variant A drops the cmis: prefix of built-in ids and type ids, B keeps it") {
  const ObjectData o = Sample();
  Renderer a(nullptr, Options(Variant::kA, true));
  const Json ja = Render(a, o);
  CHECK(ja == Json{{"succinctProperties",
                    {{"name", "a"},
                     {"objectTypeId", "document"},
                     {"creationDate", 1700000000123},
                     {"acme:x", 1},
                     {"acme:tags", {"p", "q"}},
                     {"description", nullptr}}}});
  Renderer b(nullptr, Options(Variant::kB, false));
  const Json jb = Render(b, o);
  CHECK(jb["properties"]["cmis:objectTypeId"] == Json{{"id", "cmis:objectTypeId"},
                                                     {"localName", "objectTypeId"},
                                                     {"displayName", "objectTypeId"},
                                                     {"queryName", "cmis:objectTypeId"},
                                                     {"type", "string"},
                                                     {"cardinality", "single"},
                                                     {"value", "cmis:document"}});
  CHECK(jb["properties"]["acme:x"]["type"] == "integer");
  CHECK(jb["properties"]["acme:tags"]["cardinality"] == "multi");
  CHECK(jb["properties"].size() == o.properties.size());
}

TEST_CASE("Renderer: filter, allowable actions, and a shadowed custom id in variant A") {
  ObjectData o = Sample();
  RenderOptions options = Options(Variant::kA, true);
  options.filter = *ParseFilter("name,acme:x");
  Renderer r(nullptr, options);
  const Json actions = {{"canGetProperties", true}};
  CHECK(Render(r, o, &actions) ==
        Json{{"succinctProperties", {{"name", "a"}, {"acme:x", 1}}}, {"allowableActions", actions}});
  // A custom "name" would print as variant A's "name" a second time: the built-in wins.
  o.properties["name"] = "custom";
  Renderer all(nullptr, Options(Variant::kA, true));
  std::string text;
  JsonWriter w(text);
  all.WriteProperties(o, w);
  CHECK(Json::parse(text)["name"] == "a");
  CHECK(text.find("custom") == std::string::npos);
  Renderer b(nullptr, Options(Variant::kB, true));
  CHECK(Render(b, o)["succinctProperties"]["name"] == "custom");
}

}  // namespace
}  // namespace folio::api
