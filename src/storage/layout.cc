// The on-disk names of the format; see layout.h and docs/STORAGE.md.
#include "storage/layout.h"

#include <cctype>

namespace folio::storage {
namespace {

constexpr std::string_view kJsonSuffix = ".json";
constexpr std::string_view kContentSuffix = ".content";

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

bool IsLabel(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == s.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i != dot && !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// Type ids may hold ':' (fine on Linux) but not '/'; a leading '.' would hide the file.
std::string EscapeFileName(std::string_view id) {
  std::string out;
  for (char c : id) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '/' || c == '%' || u < 0x20 || (out.empty() && c == '.')) {
      static const char* kHex = "0123456789ABCDEF";
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

bool IsReservedName(std::string_view name) { return StartsWithNoCase(name, kReservedPrefix); }
bool IsTempName(std::string_view name) { return name.substr(0, kTempPrefix.size()) == kTempPrefix; }

std::string JoinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out(a);
  out += '/';
  out += b;
  return out;
}
std::string JoinPath(std::string_view a, std::string_view b, std::string_view c) {
  return JoinPath(JoinPath(a, b), c);
}
std::string ParentPath(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}
std::string BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}
bool IsAtOrBelow(std::string_view path, std::string_view dir) {
  return path.substr(0, dir.size()) == dir && (path.size() == dir.size() || path[dir.size()] == '/');
}

std::string ServerMetaDir() { return std::string(kMetaDir); }
std::string ServerLockFile() { return JoinPath(kMetaDir, "lock"); }
std::string ServingLockFile(bool read_only) {
  return JoinPath(kMetaDir, read_only ? "serving-read-only" : "serving");
}
std::string DataMarkerFile() { return JoinPath(kMetaDir, "folio.json"); }
constexpr std::string_view kServerTrashPrefix = "trash-";
std::string ServerTrash(std::string_view id) {
  return JoinPath(kMetaDir, std::string(kServerTrashPrefix) + std::string(id));
}
bool IsServerTrashName(std::string_view name) { return name.starts_with(kServerTrashPrefix); }
std::string DomainDir(std::string_view domain) { return std::string(domain); }
std::string DomainMetaDir(std::string_view domain) { return JoinPath(domain, kMetaDir); }
std::string DomainFile(std::string_view domain) { return JoinPath(domain, kMetaDir, "domain.json"); }

std::string DomainLockFile(std::string_view domain) { return JoinPath(DomainMetaDir(domain), "lock"); }
std::string DomainJournalDir(std::string_view domain) { return JoinPath(DomainMetaDir(domain), "journal"); }
RepoLayout DomainCommitLayout(std::string_view domain) { return RepoLayout(std::string(domain)); }
std::string UsersDir(std::string_view domain) { return JoinPath(DomainMetaDir(domain), "users"); }
std::string UserFile(std::string_view domain, std::string_view user_id) {
  return JoinPath(UsersDir(domain), std::string(user_id) + ".json");
}
std::string GroupsDir(std::string_view domain) { return JoinPath(DomainMetaDir(domain), "groups"); }
std::string GroupFile(std::string_view domain, std::string_view group_id) {
  return JoinPath(GroupsDir(domain), std::string(group_id) + ".json");
}
std::optional<std::string> PrincipalIdOfFile(std::string_view file_name) {
  constexpr std::string_view kSuffix = ".json";
  if (IsTempName(file_name) || file_name.size() <= kSuffix.size() ||
      file_name.substr(file_name.size() - kSuffix.size()) != kSuffix) {
    return std::nullopt;
  }
  return std::string(file_name.substr(0, file_name.size() - kSuffix.size()));
}

std::string RepoLayout::MetaDir() const { return JoinPath(base_, kMetaDir); }
std::string RepoLayout::RepositoryFile() const { return JoinPath(MetaDir(), "repository.json"); }
std::string RepoLayout::LockFile() const { return JoinPath(MetaDir(), "lock"); }
std::string RepoLayout::JournalDir() const { return JoinPath(MetaDir(), "journal"); }
std::string RepoLayout::IndexDir() const { return JoinPath(MetaDir(), "index"); }
std::string RepoLayout::IndexShardDir(std::string_view id) const {
  // Shard by the last two characters: ids are random there, so shards stay even.
  std::string_view shard = id.size() >= 2 ? id.substr(id.size() - 2) : std::string_view("__");
  return JoinPath(IndexDir(), shard);
}
std::string RepoLayout::IndexEntry(std::string_view id) const {
  return JoinPath(IndexShardDir(id), RecordFileName(id));
}
std::string RepoLayout::TypesDir() const { return JoinPath(MetaDir(), "types"); }
std::string RepoLayout::TypeFile(std::string_view type_id) const {
  return JoinPath(TypesDir(), EscapeFileName(type_id) + ".json");
}
std::string RepoLayout::RelationshipsDir() const { return JoinPath(MetaDir(), "relationships"); }
std::string RepoLayout::RelationshipFile(std::string_view id) const {
  return JoinPath(RelationshipsDir(), RecordFileName(id));
}
std::string RepoLayout::LogFile() const { return JoinPath(MetaDir(), "log"); }
std::string RepoLayout::ChangesDir() const { return JoinPath(MetaDir(), "changes"); }
std::string RepoLayout::QueryIndexFile() const { return JoinPath(MetaDir(), "query.sqlite"); }
std::string RepoLayout::QueryIndexLockFile() const { return JoinPath(MetaDir(), "query.lock"); }
std::string RepoLayout::UploadsDir() const { return JoinPath(MetaDir(), "uploads"); }
std::string RepoLayout::TrashDir() const { return JoinPath(MetaDir(), "trash"); }
std::string RepoLayout::SpareDir() const { return JoinPath(MetaDir(), "spare"); }
std::string RepoLayout::LostFoundDir() const { return JoinPath(MetaDir(), "lost+found"); }

std::string RepoLayout::TypeUsageDir() const { return JoinPath(MetaDir(), "typed"); }
std::string RepoLayout::TypeUsageDir(std::string_view type_id) const {
  return JoinPath(TypeUsageDir(), EscapeFileName(type_id));
}
std::string RepoLayout::TypeUsageMarker(std::string_view type_id, std::string_view object_id) const {
  return JoinPath(TypeUsageDir(type_id), object_id);
}
std::string RepoLayout::CheckedOutDir() const { return JoinPath(MetaDir(), kCheckedOutDirName); }
std::string RepoLayout::CheckedOutMarker(std::string_view series_id) const {
  return JoinPath(CheckedOutDir(), series_id);
}

std::string RepoLayout::AdoptedDir() const { return JoinPath(MetaDir(), "adopted"); }
std::string RepoLayout::AdoptedFolderDir(std::string_view folder_id) const {
  return JoinPath(AdoptedDir(), folder_id);
}
std::string RepoLayout::AdoptionTable(std::string_view folder_id, uint64_t n) const {
  return JoinPath(AdoptedFolderDir(folder_id), std::to_string(n) + std::string(kJsonSuffix));
}

std::string RepoLayout::Dir(std::string_view folder) const { return JoinPath(base_, folder); }
std::string RepoLayout::FolderMeta(std::string_view folder) const { return JoinPath(Dir(folder), kMetaDir); }
std::string RepoLayout::FolderFile(std::string_view folder) const {
  return JoinPath(FolderMeta(folder), kFolderFileName);
}
std::string RepoLayout::DocsDir(std::string_view folder) const { return JoinPath(FolderMeta(folder), "docs"); }
std::string RepoLayout::ItemsDir(std::string_view folder) const { return JoinPath(FolderMeta(folder), "items"); }
std::string RepoLayout::FolderMarkersDir(std::string_view folder) const {
  return JoinPath(FolderMeta(folder), "folders");
}
std::string RepoLayout::FolderMarker(std::string_view folder_path) const {
  return JoinPath(FolderMarkersDir(ParentPath(folder_path)), BaseName(folder_path));
}
std::string RepoLayout::Child(std::string_view folder, std::string_view name) const {
  return JoinPath(Dir(folder), name);
}
std::string RepoLayout::SeriesDir(std::string_view folder, std::string_view name) const {
  return JoinPath(DocsDir(folder), name);
}
std::string RepoLayout::SeriesFile(std::string_view folder, std::string_view name) const {
  return JoinPath(SeriesDir(folder, name), kSeriesFileName);
}
std::string RepoLayout::VersionProps(std::string_view folder, std::string_view name, std::string_view label) const {
  return JoinPath(SeriesDir(folder, name), VersionPropsName(label));
}
std::string RepoLayout::VersionContent(std::string_view folder, std::string_view name, std::string_view label) const {
  return JoinPath(SeriesDir(folder, name), VersionContentName(label));
}
std::string RepoLayout::VersionArchive(std::string_view folder, std::string_view name, uint64_t number) const {
  return JoinPath(SeriesDir(folder, name), VersionArchiveName(number));
}
std::string RepoLayout::PwcProps(std::string_view folder, std::string_view name) const {
  return JoinPath(SeriesDir(folder, name), kPwcPropsName);
}
std::string RepoLayout::PwcContent(std::string_view folder, std::string_view name) const {
  return JoinPath(SeriesDir(folder, name), kPwcContentName);
}
std::string RepoLayout::ItemDir(std::string_view folder, std::string_view name) const {
  return JoinPath(ItemsDir(folder), name);
}
std::string RepoLayout::ItemFile(std::string_view folder, std::string_view name) const {
  return JoinPath(ItemDir(folder, name), kItemFileName);
}

std::string VersionPropsName(std::string_view label) { return std::string(label) + std::string(kJsonSuffix); }
std::string VersionContentName(std::string_view label) { return std::string(label) + std::string(kContentSuffix); }
std::string FolderFileInDir() { return JoinPath(kMetaDir, kFolderFileName); }

std::string RecordFileName(std::string_view id) { return std::string(id) + std::string(kJsonSuffix); }

std::optional<std::string> IdOfRecordFileName(std::string_view file_name) {
  if (file_name.size() <= kJsonSuffix.size() || !file_name.ends_with(kJsonSuffix)) return std::nullopt;
  if (IsReservedName(file_name) || IsTempName(file_name)) return std::nullopt;
  return std::string(file_name.substr(0, file_name.size() - kJsonSuffix.size()));
}

namespace {
constexpr std::string_view kSegmentSuffix = ".jsonl";
constexpr size_t kSegmentDigits = 20;  // every uint64_t, zero-padded: name order is token order
}  // namespace

std::string ChangeLogSegmentName(uint64_t first_token) {
  std::string digits = std::to_string(first_token);
  return std::string(kSegmentDigits - digits.size(), '0') + digits + std::string(kSegmentSuffix);
}

std::optional<uint64_t> ChangeLogSegmentFirst(std::string_view file_name) {
  if (file_name.size() != kSegmentDigits + kSegmentSuffix.size() || !file_name.ends_with(kSegmentSuffix)) {
    return std::nullopt;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < kSegmentDigits; ++i) {
    const char c = file_name[i];
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;  // 20 digits can exceed a uint64_t
    v = v * 10 + digit;
  }
  return v;
}

std::optional<uint64_t> AdoptionTableNumber(std::string_view file_name) {
  if (file_name.size() <= kJsonSuffix.size() || !file_name.ends_with(kJsonSuffix)) return std::nullopt;
  return NumberOf(file_name.substr(0, file_name.size() - kJsonSuffix.size()));
}

std::string VersionArchiveName(uint64_t number) {
  return std::string(kVersionArchivePrefix) + std::to_string(number) + std::string(kJsonSuffix);
}

std::optional<uint64_t> VersionArchiveNumber(std::string_view file_name) {
  if (file_name.size() < kVersionArchivePrefix.size() + kJsonSuffix.size() ||
      !file_name.starts_with(kVersionArchivePrefix) || !file_name.ends_with(kJsonSuffix)) {
    return std::nullopt;
  }
  return NumberOf(file_name.substr(kVersionArchivePrefix.size(),
                                   file_name.size() - kVersionArchivePrefix.size() - kJsonSuffix.size()));
}

std::optional<uint64_t> NumberOf(std::string_view digits) {
  if (digits.empty() || digits.size() > 18 || digits[0] == '0') return std::nullopt;
  uint64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

SeriesFileName ClassifySeriesFile(std::string_view file_name) {
  SeriesFileName out;
  if (file_name == kSeriesFileName) { out.kind = SeriesFileName::Kind::kSeries; return out; }
  if (file_name == kPwcPropsName) { out.kind = SeriesFileName::Kind::kPwcProps; return out; }
  if (file_name == kPwcContentName) { out.kind = SeriesFileName::Kind::kPwcContent; return out; }
  if (IsTempName(file_name)) { out.kind = SeriesFileName::Kind::kTemp; return out; }
  if (VersionArchiveNumber(file_name)) { out.kind = SeriesFileName::Kind::kVersionArchive; return out; }
  auto strip = [&](std::string_view suffix, SeriesFileName::Kind kind) {
    if (file_name.size() > suffix.size() && file_name.substr(file_name.size() - suffix.size()) == suffix) {
      std::string_view label = file_name.substr(0, file_name.size() - suffix.size());
      if (IsLabel(label)) { out.kind = kind; out.label = std::string(label); return true; }
    }
    return false;
  };
  if (strip(kJsonSuffix, SeriesFileName::Kind::kVersionProps)) return out;
  if (strip(kContentSuffix, SeriesFileName::Kind::kVersionContent)) return out;
  return out;
}

}  // namespace folio::storage
