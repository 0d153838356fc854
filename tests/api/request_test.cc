#include "api/request.h"

#include <doctest/doctest.h>

namespace folio::api {
namespace {

TEST_CASE("MediaType: lowercased type without parameters") {
  struct Case {
    std::string_view header;
    std::string_view media;
  };
  const Case cases[] = {
      {"", ""},
      {"application/json", "application/json"},
      {"Application/JSON; charset=UTF-8", "application/json"},
      {"application/x-www-form-urlencoded;charset=UTF-8", "application/x-www-form-urlencoded"},
      {" multipart/form-data ; boundary=----abc", "multipart/form-data"},
      {";", ""},
  };
  for (const Case& c : cases) CHECK_MESSAGE(MediaType(c.header) == c.media, c.header);
}

}  // namespace
}  // namespace folio::api
