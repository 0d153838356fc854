// The variant spellings of built-in ids: the only code that adds or removes "cmis:".
#include "api/variant.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "api/cmis_names.h"
#include "api/url.h"

namespace folio::api {
namespace {

// Built-in ids, without and with their prefix. Built once; views into constants.
struct BuiltinIds {
  std::unordered_set<std::string_view> prefixed;                       // properties and types
  std::unordered_map<std::string_view, std::string_view> property_of;  // "name" -> "cmis:name"
  std::unordered_map<std::string_view, std::string_view> type_of;      // "folder" -> "cmis:folder"

  BuiltinIds() {
    for (const std::string_view id : kBuiltinPropertyIds) {
      prefixed.insert(id);
      property_of.emplace(id.substr(kCmisPrefix.size()), id);
    }
    for (const std::string_view id : kBuiltinTypeIds) {
      prefixed.insert(id);
      type_of.emplace(id.substr(kCmisPrefix.size()), id);
    }
  }
};

const BuiltinIds& Builtins() {
  static const BuiltinIds builtins;
  return builtins;
}

std::string_view Canonical(const std::unordered_map<std::string_view, std::string_view>& map,
                           std::string_view input) {
  const auto it = map.find(input);
  return it == map.end() ? input : it->second;
}

}  // namespace

Result<Variant> ParseVariant(std::string_view text) {
  if (text == "A" || text == "a") return Variant::kA;
  if (text == "B" || text == "b") return Variant::kB;
  return InvalidArgument("variant must be A or B, got " + QuoteForMessage(text));
}

std::string_view VariantName(Variant variant) { return variant == Variant::kA ? "A" : "B"; }

std::string_view ToResponseId(Variant variant, std::string_view canonical) {
  if (variant == Variant::kB || !Builtins().prefixed.contains(canonical)) return canonical;
  return canonical.substr(kCmisPrefix.size());
}

std::string_view ToCanonicalPropertyId(std::string_view input) {
  return Canonical(Builtins().property_of, input);
}

std::string_view ToCanonicalTypeId(std::string_view input) {
  return Canonical(Builtins().type_of, input);
}

bool DefaultSuccinct(Variant variant) { return variant == Variant::kA; }

}  // namespace folio::api
