// Cached record reads; see record_reader.h.
#include "repo/lookup/record_reader.h"

#include "storage/json_access.h"

namespace folio::repo::lookup {

Result<std::shared_ptr<const storage::Json>> RecordReader::Read(const std::string& path) {
  return cache_.Read(fs_, path);
}

std::shared_ptr<const storage::Json> RecordReader::Peek(const std::string& path) { return cache_.Peek(path); }

Result<ObjectRecord> RecordReader::ReadRecord(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto j, cache_.Read(fs_, path));
  return ObjectRecordFromJson(*j, path);
}

Result<SeriesRecord> RecordReader::ReadSeries(const std::string& folder, const std::string& name) {
  const std::string path = layout_.SeriesFile(folder, name);
  FOLIO_ASSIGN_OR_RETURN(auto j, cache_.Read(fs_, path));
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const SeriesRecord> s, DecodeSeries(j, path));
  return *s;
}

Result<SeriesRecord> RecordReader::ReadSeries(const Loc& loc) {
  if (loc.adopted == nullptr || loc.record == nullptr) return ReadSeries(loc.folder, loc.name);
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const SeriesRecord> s, DecodeSeries(loc.record, loc.name));
  return *s;
}

Result<std::shared_ptr<const SeriesRecord>> RecordReader::DecodeSeries(const std::shared_ptr<const storage::Json>& json,
                                                                       const std::string& what) {
  {
    std::lock_guard<std::mutex> lock(series_mu_);
    auto it = series_memo_.find(json.get());
    // An expired entry is an earlier JSON that had this address: not ours.
    if (it != series_memo_.end() && it->second.json.lock() == json) return it->second.series;
  }
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord decoded, SeriesRecordFromJson(*json, what));
  auto series = std::make_shared<const SeriesRecord>(std::move(decoded));
  std::lock_guard<std::mutex> lock(series_mu_);
  SweepMemo(series_memo_, sweep_at_, max_series_, [](const SeriesMemo& m) { return m.json.expired(); });
  series_memo_[json.get()] = SeriesMemo{json, series};
  return series;
}

size_t RecordReader::SeriesMemoSize() {
  std::lock_guard<std::mutex> lock(series_mu_);
  return series_memo_.size();
}

Result<ObjectRecord> RecordReader::ReadDocumentRecord(const std::string& folder, const std::string& name,
                                                      const SeriesRecord& series) {
  return ReadRecord(series.versions.empty() ? layout_.PwcProps(folder, name)
                                            : layout_.VersionProps(folder, name, series.versions.back()));
}

Result<std::string> RecordReader::FolderId(const std::string& folder) {
  const std::string path = layout_.FolderFile(folder);
  FOLIO_ASSIGN_OR_RETURN(auto j, cache_.Read(fs_, path));
  auto id = storage::StringField(*j, "id");
  if (!id) return StorageError("'" + path + "' has no id");
  return *id;
}

void RecordReader::DropCaches() {
  cache_.Clear();
  std::lock_guard<std::mutex> lock(series_mu_);
  series_memo_.clear();
  sweep_at_ = kFirstMemoSweep;
}

}  // namespace folio::repo::lookup
