// Version labels "<major>.<minor>" and their arithmetic (the label rules of docs/API.md §6.4).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace folio::repo::versions {

struct VersionLabel {
  int major = 1;
  int minor = 0;

  // "2.1" -> {2, 1}; nullopt for anything else ("", "1", "1.x", "-1.0", leading '+').
  static std::optional<VersionLabel> Parse(std::string_view text);
  static VersionLabel FirstMajor() { return {1, 0}; }  // created with versioningState major
  static VersionLabel FirstMinor() { return {0, 1}; }  // created with versioningState minor

  std::string ToString() const;
  bool IsMajor() const { return minor == 0; }  // rule 2
  // Major check-in: major part +1, minor restarts at 0.
  VersionLabel NextMajor() const { return {major + 1, 0}; }
  // Minor check-in: minor part +1.
  VersionLabel NextMinor() const { return {major, minor + 1}; }
  // The label after `latest` (nullopt: the series has no version yet).
  static VersionLabel Next(const std::optional<VersionLabel>& latest, bool major_checkin);

  auto operator<=>(const VersionLabel&) const = default;
};

}  // namespace folio::repo::versions
