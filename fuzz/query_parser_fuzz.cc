// libFuzzer target: the CMIS QL parser (src/repo/query/parser.h), and the CONTAINS
// expression and LIKE pattern parsers, fed arbitrary bytes. What it checks beyond "no
// crash, no leak, no undefined behaviour" (under ASan/UBSan): every statement either
// parses or is refused with kInvalidArgument, whose message names a position, a limit
// or the missing statement (docs/API.md §12.5); nothing else ever comes out.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "repo/query/like.h"
#include "repo/query/parser.h"
#include "repo/query/text_search.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

bool NamesWhere(const std::string& message) {
  for (std::string_view what : {"line ", "missing statement", "bytes long"}) {
    if (message.find(what) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto parsed = folio::query::Parse(input);
  if (!parsed.ok()) {
    Check(parsed.status().kind() == folio::ErrorKind::kInvalidArgument);
    Check(NamesWhere(parsed.status().message()));
  }
  auto text = folio::query::ParseTextSearch(input);
  if (!text.ok()) Check(text.status().kind() == folio::ErrorKind::kInvalidArgument);
  const folio::query::LikePattern like = folio::query::CompileLike(input);
  (void)folio::query::LikeMatch(like, input);
  (void)folio::query::LikePrefix(like);
  return 0;
}
