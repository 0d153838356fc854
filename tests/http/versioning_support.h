// Helpers shared by the HTTP versioning tests (versioning_*_test.cc): the two
// variants, flat property maps, and the check-out / check-in requests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "http/server_fixture.h"

namespace folio::testing {

struct Var {
  std::string repo;  // "alpha" (variant A) or "beta" (variant B)
  std::string p;     // property prefix: "" or "cmis:"
  bool succinct_default;
  std::string Url() const { return "/demo/" + repo; }
  std::string Id(const std::string& local) const { return p + local; }
};

inline const Var kVarA{"alpha", "", true};
inline const Var kVarB{"beta", "cmis:", false};

// The properties of an object response as id -> value, whichever form it has.
inline Json Flat(const Json& object) {
  if (object.contains("succinctProperties")) return object["succinctProperties"];
  Json out = Json::object();
  if (!object.contains("properties")) return out;
  for (auto it = object["properties"].begin(); it != object["properties"].end(); ++it) {
    out[it.key()] = (*it)["value"];
  }
  return out;
}

inline Json Get(const Json& flat, const std::string& id) { return flat.value(id, Json()); }

inline std::string ReadDiskFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Creates document `name` with `bytes` in /docs by multipart createObject; returns its flat properties.
inline Json CreateDoc(httplib::Client& c, const Var& v, const std::string& name, const std::string& bytes,
                      const std::string& state = "major") {
  Upload up{bytes, name, "text/plain"};
  auto r =
      PostAs(c, v.Url() + "/docs", Encoding::kMultipart, {{"operation", "createObject"}, {"versioningState", state}},
             Json{{v.Id("name"), name}, {v.Id("objectTypeId"), v.p + "document"}}, &up);
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  return Flat(BodyJson(r));
}

inline std::string ErrorName(const httplib::Result& r) {
  REQUIRE(r);
  return BodyJson(r).value("exception", "");
}

inline std::string ErrorMessage(const httplib::Result& r) {
  REQUIRE(r);
  return BodyJson(r).value("message", "");
}

}  // namespace folio::testing
