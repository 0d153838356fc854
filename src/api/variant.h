// Variants A and B (docs/API.md §5) and the one translation layer between the canonical
// ids the engine uses (always the CMIS spelling: "cmis:name", "cmis:document") and the
// spelling a variant shows or a client sends. Only the built-in ids of cmis_names.h are
// translated; custom ids ("acme:amount", "title") pass through unchanged.
#pragma once

#include <string_view>

#include "folio/status.h"

namespace folio::api {

enum class Variant { kA, kB };

// "A" or "B", any case. Errors: kInvalidArgument "variant must be A or B, got '<text>'".
Result<Variant> ParseVariant(std::string_view text);

// "A" or "B".
std::string_view VariantName(Variant variant);

// The spelling of a canonical property id or type id in `variant`'s responses: variant
// A drops the "cmis:" prefix of built-in ids ("cmis:versionLabel" -> "versionLabel",
// "cmis:folder" -> "folder"); variant B, and any id that is not built in, are returned
// unchanged. The result views `canonical`'s characters: it lives as long as they do.
std::string_view ToResponseId(Variant variant, std::string_view canonical);

// The canonical id of a property id from a request, in either variant: a built-in id
// without its prefix gets it ("name" -> "cmis:name"); anything else ("cmis:name",
// "acme:amount", "title") is returned unchanged. The result views either `input` or a
// constant with static storage. Case-sensitive, as CMIS ids are.
std::string_view ToCanonicalPropertyId(std::string_view input);

// As ToCanonicalPropertyId, for type ids: "document" -> "cmis:document", and the same
// for folder, item, relationship, policy and secondary.
std::string_view ToCanonicalTypeId(std::string_view input);

// Whether responses are succinct when the request does not say: A true, B false.
bool DefaultSuccinct(Variant variant);

}  // namespace folio::api
