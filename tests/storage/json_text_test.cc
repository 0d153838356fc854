// storage::AppendJson and AppendJsonString (src/storage/json_text.h) give byte for byte
// what nlohmann's dump() gives, compact and pretty: every byte value in strings,
// invalid UTF-8, numbers of every kind, empty and nested containers, and random values.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "storage/json_text.h"

namespace folio::storage {
namespace {

std::string Nlohmann(const Json& v, int indent) { return v.dump(indent, ' ', false, Json::error_handler_t::replace); }

std::string Ours(const Json& v, int indent) {
  std::string out;
  AppendJson(out, v, indent);
  return out;
}

void CheckSame(const Json& v) {
  for (int indent : {-1, 0, 2, 4}) {
    INFO("indent " << indent << ": " << Nlohmann(v, -1));
    CHECK(Ours(v, indent) == Nlohmann(v, indent));
  }
}

Json RandomValue(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> kind(0, depth > 3 ? 6 : 8);
  auto random_string = [&] {
    std::uniform_int_distribution<int> len(0, 12), byte(0, 255), pick(0, 3);
    std::string s;
    for (int n = len(rng); n > 0; --n) {
      switch (pick(rng)) {
        case 0: s.push_back(static_cast<char>(byte(rng))); break;  // any byte, often invalid UTF-8
        case 1: s += "\xC3\xA9"; break;                              // é
        case 2: s.push_back(static_cast<char>(byte(rng) % 0x20)); break;  // control
        default: s.push_back("\"\\/ax\x7f"[byte(rng) % 6]);
      }
    }
    return s;
  };
  switch (kind(rng)) {
    case 0: return nullptr;
    case 1: return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    case 2: return std::uniform_int_distribution<int64_t>(INT64_MIN, INT64_MAX)(rng);
    case 3: return std::uniform_int_distribution<uint64_t>(0, UINT64_MAX)(rng);
    case 4: return std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
    case 5:
    case 6: return random_string();
    case 7: {
      Json a = Json::array();
      for (int n = std::uniform_int_distribution<int>(0, 4)(rng); n > 0; --n) a.push_back(RandomValue(rng, depth + 1));
      return a;
    }
    default: {
      Json o = Json::object();
      for (int n = std::uniform_int_distribution<int>(0, 4)(rng); n > 0; --n) o[random_string()] = RandomValue(rng, depth + 1);
      return o;
    }
  }
}

}  // namespace

TEST_CASE("JsonText: every single byte, escapes and UTF-8 as nlohmann writes them") {
  for (int b = 0; b < 256; ++b) {
    const std::string s(1, static_cast<char>(b));
    std::string ours;
    AppendJsonString(ours, s);
    INFO("byte " << b);
    CHECK(ours == Nlohmann(Json(s), -1));
  }
  for (const char* s : {"", "plain", "quote \" and backslash \\ and slash /", "tab\tnew\nline\r\b\f", "\x01\x1f\x7f",
                        "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "bad \xC3 end", "overlong \xC0\xAF", "surrogate \xED\xA0\x80",
                        "beyond \xF4\x90\x80\x80", "cut \xE2\x82"}) {
    std::string ours;
    AppendJsonString(ours, s);
    CHECK(ours == Nlohmann(Json(std::string(s)), -1));
  }
}

TEST_CASE("JsonText: a byte to escape at every position of strings of every length up to 40") {
  for (size_t len = 1; len <= 40; ++len) {
    for (size_t at = 0; at < len; ++at) {
      for (const char c : {'"', '\\', '\n', '\x01', '\x1f', ' ', '\x7f'}) {
        std::string s(len, 'a');
        s[at] = c;
        std::string ours;
        AppendJsonString(ours, s);
        INFO("length " << len << ", byte " << int(c) << " at " << at);
        CHECK(ours == Nlohmann(Json(s), -1));
      }
      std::string u(len, 'b');
      u[at] = '\xC3';  // invalid alone (a cut sequence), valid with a continuation after it
      std::string ours;
      AppendJsonString(ours, u);
      CHECK(ours == Nlohmann(Json(u), -1));
      if (at + 1 < len) {
        u[at + 1] = '\xA9';
        ours.clear();
        AppendJsonString(ours, u);
        CHECK(ours == Nlohmann(Json(u), -1));
      }
    }
  }
}

TEST_CASE("JsonText: numbers, empty and nested containers, compact and pretty") {
  CheckSame(Json::object());
  CheckSame(Json::array());
  CheckSame(Json{{"a", Json::object()}, {"b", Json::array()}, {"c", Json::array({1, Json::array(), Json::object()})}});
  CheckSame(Json{{"min", INT64_MIN}, {"max", INT64_MAX}, {"umax", UINT64_MAX}, {"zero", 0}, {"neg", -1}});
  CheckSame(Json{{"pi", 3.141592653589793}, {"tiny", 1e-300}, {"big", 1e300}, {"half", 0.5}, {"negzero", -0.0}});
  CheckSame(Json{{"t", true}, {"f", false}, {"n", nullptr}, {"s", "x\ny"}});
  CheckSame(Json::parse(R"({"cmis:name":"a.txt","versions":["1.0","1.1"],"acl":[{"principal":"anyone","permissions":["cmis:read"]}]})"));
}

TEST_CASE("JsonText: random values (invalid UTF-8, controls, nesting) as nlohmann writes them") {
  std::mt19937 rng(20261124);
  for (int i = 0; i < 2000; ++i) CheckSame(RandomValue(rng, 0));
}

}  // namespace folio::storage
