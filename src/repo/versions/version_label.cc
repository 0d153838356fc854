// Version label arithmetic; see version_label.h.
#include "repo/versions/version_label.h"

#include <charconv>

namespace folio::repo::versions {
namespace {
std::optional<int> ParsePart(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
  if (s.size() > 1 && s[0] == '0') return std::nullopt;  // one spelling per label
  return v;
}
}  // namespace

std::optional<VersionLabel> VersionLabel::Parse(std::string_view text) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto major = ParsePart(text.substr(0, dot));
  auto minor = ParsePart(text.substr(dot + 1));
  if (!major || !minor) return std::nullopt;
  if (*major == 0 && *minor == 0) return std::nullopt;
  return VersionLabel{*major, *minor};
}

std::string VersionLabel::ToString() const { return std::to_string(major) + "." + std::to_string(minor); }

VersionLabel VersionLabel::Next(const std::optional<VersionLabel>& latest, bool major_checkin) {
  if (!latest) return major_checkin ? FirstMajor() : FirstMinor();
  return major_checkin ? latest->NextMajor() : latest->NextMinor();
}

}  // namespace folio::repo::versions
