// Fuzz target: the property and ACE forms (api/properties_form.h) as a client sends them:
// an urlencoded body (propertyId[N]/propertyValue[N][M], addACEPrincipal[N]/..., or a
// `properties` JSON field) merged with Params::FromRequest, then read.
// Invariants: properties are a JSON object of at most 1,000 entries whose keys are
// non-empty, every value a scalar or an array of scalars; errors are invalidArgument or
// constraint, with valid UTF-8 messages.
#include <cstdint>
#include <string>

#include "api/params.h"
#include "api/properties_form.h"
#include "api/request.h"
#include "api/url.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio::api;
  Request request;
  request.method = "POST";
  request.content_type = "application/x-www-form-urlencoded";
  request.body.assign(reinterpret_cast<const char*>(data), size);
  auto params = Params::FromRequest(request);
  if (!params.ok()) {
    FOLIO_FUZZ_CHECK(params.status().kind() == folio::ErrorKind::kInvalidArgument ||
                     params.status().kind() == folio::ErrorKind::kConstraint);
    FOLIO_FUZZ_CHECK(IsValidUtf8(params.status().message()));
    return 0;
  }
  auto properties = ReadProperties(*params);
  if (properties.ok()) {
    FOLIO_FUZZ_CHECK(properties->is_object());
    FOLIO_FUZZ_CHECK(properties->size() <= kMaxProperties);
    for (auto it = properties->begin(); it != properties->end(); ++it) {
      FOLIO_FUZZ_CHECK(!it.key().empty());
      FOLIO_FUZZ_CHECK(!it->is_object());
      if (it->is_array()) {
        for (const Json& v : *it) FOLIO_FUZZ_CHECK(!v.is_object() && !v.is_array());
      }
    }
  } else {
    FOLIO_FUZZ_CHECK(properties.status().kind() == folio::ErrorKind::kInvalidArgument ||
                     properties.status().kind() == folio::ErrorKind::kConstraint);
    FOLIO_FUZZ_CHECK(IsValidUtf8(properties.status().message()));
  }
  for (AceList which : {AceList::kAdd, AceList::kRemove}) {
    auto aces = ReadAces(*params, which);
    if (!aces.ok()) FOLIO_FUZZ_CHECK(IsValidUtf8(aces.status().message()));
  }
  auto op = params->GetOperation();
  if (!op.ok()) FOLIO_FUZZ_CHECK(IsValidUtf8(op.status().message()));
  return 0;
}
