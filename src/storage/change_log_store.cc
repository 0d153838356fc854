// The change log's segment files; see change_log_store.h and docs/STORAGE.md §8.
#include "storage/change_log_store.h"

#include <algorithm>
#include <cstdint>

#include "storage/json_access.h"
#include "storage/json_text.h"
#include "storage/layout.h"

namespace folio::storage {
namespace {


// The token of an event line as Encode writes it ({"token":N,...}), read without
// parsing the JSON: how a read skips the events before the one asked for. nullopt for
// another shape (then the line is parsed).
std::optional<uint64_t> LineToken(std::string_view line) {
  constexpr std::string_view kPrefix = "{\"token\":";
  if (!line.starts_with(kPrefix)) return std::nullopt;
  uint64_t v = 0;
  size_t i = kPrefix.size();
  const size_t start = i;
  for (; i < line.size() && line[i] >= '0' && line[i] <= '9' && i - start < 19; ++i) {
    v = v * 10 + static_cast<uint64_t>(line[i] - '0');
  }
  if (i == start || i >= line.size() || line[i] != ',') return std::nullopt;
  return v;
}

}  // namespace

ChangeLogStore::ChangeLogStore(Fs& fs, std::string dir, ChangeLogLimits limits, ChangeLogListener listener)
    : fs_(fs), dir_(std::move(dir)), limits_(limits), listener_(std::move(listener)) {
  // Retention drops whole segments: with segments of at most a quarter of the limit,
  // the log keeps between max_events and 1.25 x max_events events.
  limits_.max_events = std::max<uint64_t>(limits_.max_events, 1);
  limits_.segment_events = std::clamp<uint64_t>(limits_.max_events / 4, 1, limits_.segment_events);
}

Result<std::vector<ChangeLogStore::Segment>> ChangeLogStore::Segments() {
  std::vector<Segment> out;
  auto entries = fs_.List(dir_);
  if (!entries.ok()) {
    if (IsNoEntry(entries.status())) return out;
    return entries.status();
  }
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kFile) continue;
    if (auto first = ChangeLogSegmentFirst(e.name)) out.push_back({*first, e.name});
  }
  std::sort(out.begin(), out.end(), [](const Segment& a, const Segment& b) { return a.first < b.first; });
  return out;
}

Result<std::vector<ChangeEvent>> ChangeLogStore::ReadSegment(const Segment& s, uint64_t from, size_t max) {
  std::vector<ChangeEvent> out;
  if (max == 0) return out;
  auto file = fs_.Open(JoinPath(dir_, s.name));
  if (!file.ok()) {
    if (IsNoEntry(file.status())) return out;  // dropped by the limit meanwhile
    return file.status();
  }
  FOLIO_ASSIGN_OR_RETURN(FileStat st, (*file)->StatAtOpen());
  std::optional<ReadMark> mark;
  {
    std::lock_guard<std::mutex> lock(marks_mu_);
    auto it = marks_.find(s.name);
    if (it != marks_.end()) {
      const ReadMark& m = it->second;
      if (m.inode == st.inode && m.device == st.device && from > m.last_token && st.size >= m.offset) mark = m;
    }
  }
  // Reads the file in blocks, line by line, until `max` events are found or the file
  // ends; with a mark, from the start of its last line, which must be there as it was.
  constexpr size_t kBlock = 64 * 1024;
  std::string buf;
  size_t used = 0;      // bytes of `buf` consumed (whole lines)
  uint64_t buf_at = 0;  // the file offset of buf[0]
  bool eof = false;
  bool stale = false;   // the mark did not hold: it is replaced, however far this read gets
  auto start_at = [&](uint64_t offset) -> Status {
    buf.clear();
    used = 0;
    buf_at = offset;
    eof = false;
    return (*file)->Seek(offset);
  };
  FOLIO_RETURN_IF_ERROR(start_at(mark ? mark->offset - mark->last_line.size() : 0));
  std::optional<ReadMark> reached;  // just after the last event line consumed
  while (out.size() < max) {
    const size_t nl = buf.find('\n', used);
    if (nl == std::string::npos) {
      if (eof) {
        // A line without its newline at the end of the file is a torn append: not an
        // event. A file that ends before the mark's line is not the marked one.
        if (!mark) break;
        mark.reset();
        stale = true;
        FOLIO_RETURN_IF_ERROR(start_at(0));
        continue;
      }
      buf.erase(0, used);
      buf_at += used;
      used = 0;
      const size_t have = buf.size();
      buf.resize(have + kBlock);
      FOLIO_ASSIGN_OR_RETURN(size_t n, (*file)->Read(buf.data() + have, kBlock));
      buf.resize(have + n);
      eof = n == 0;
      continue;
    }
    const std::string_view line(buf.data() + used, nl + 1 - used);  // with its newline
    const uint64_t line_end = buf_at + nl + 1;
    used = nl + 1;
    if (mark) {
      // The first line read from a mark is its last line, already taken in.
      const bool holds = line_end == mark->offset && line == mark->last_line;
      mark.reset();
      if (!holds) {
        stale = true;
        FOLIO_RETURN_IF_ERROR(start_at(0));
      }
      continue;
    }
    const std::string_view text = line.substr(0, line.size() - 1);
    std::optional<uint64_t> token = LineToken(text);
    if (!token || *token >= from) {
      Json j = Json::parse(text.begin(), text.end(), nullptr, false);
      if (j.is_discarded()) continue;
      auto e = ChangeEvent::Decode(j);
      if (!e) continue;
      token = e->token;
      if (e->token >= from) out.push_back(std::move(*e));
    }
    reached = ReadMark{st.inode, st.device, line_end, *token, std::string(line)};
  }
  if (reached || stale) {
    std::lock_guard<std::mutex> lock(marks_mu_);
    if (stale) marks_.erase(s.name);
    if (reached) {
      // A mark further on in the same file stays: a read from an older token (a client
      // paging contentChanges) must not move the query index's catch-up back.
      auto [it, made] = marks_.try_emplace(s.name, *reached);
      ReadMark& m = it->second;
      if (!made && (m.inode != reached->inode || m.device != reached->device || m.offset < reached->offset)) {
        m = std::move(*reached);
      }
    }
  }
  return out;
}

Result<std::optional<ChangeEvent>> ChangeLogStore::LastEvent(const Segment& s) {
  // The end of the file is enough (lines are short): repositoryInfo asks on every call.
  constexpr uint64_t kTail = 64 * 1024;
  auto file = fs_.Open(JoinPath(dir_, s.name));
  if (!file.ok()) {
    if (IsNoEntry(file.status())) return std::optional<ChangeEvent>();
    return file.status();
  }
  const uint64_t size = (*file)->size();
  const uint64_t begin = size > kTail ? size - kTail : 0;
  FOLIO_RETURN_IF_ERROR((*file)->Seek(begin));
  std::string tail(size - begin, '\0');
  size_t got = 0;
  while (got < tail.size()) {
    FOLIO_ASSIGN_OR_RETURN(size_t n, (*file)->Read(tail.data() + got, tail.size() - got));
    if (n == 0) break;
    got += n;
  }
  tail.resize(got);
  // Whole lines only, newest first: a line is whole when a newline ends it and one
  // (or the file's start) comes before it.
  size_t end = tail.rfind('\n');
  while (end != std::string::npos) {
    const size_t prev = end == 0 ? std::string::npos : tail.rfind('\n', end - 1);
    if (prev == std::string::npos && begin != 0) break;
    const size_t start = prev == std::string::npos ? 0 : prev + 1;
    Json j = Json::parse(tail.begin() + static_cast<std::ptrdiff_t>(start),
                         tail.begin() + static_cast<std::ptrdiff_t>(end), nullptr, false);
    if (!j.is_discarded()) {
      if (auto e = ChangeEvent::Decode(j)) return std::optional<ChangeEvent>(std::move(*e));
    }
    end = prev;
  }
  if (begin == 0) return std::optional<ChangeEvent>();
  FOLIO_ASSIGN_OR_RETURN(std::vector<ChangeEvent> all, ReadSegment(s, 0, SIZE_MAX));
  if (all.empty()) return std::optional<ChangeEvent>();
  return std::optional<ChangeEvent>(std::move(all.back()));
}

Result<uint64_t> ChangeLogStore::LastToken() {
  FOLIO_ASSIGN_OR_RETURN(std::vector<Segment> segments, Segments());
  for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
    FOLIO_ASSIGN_OR_RETURN(std::optional<ChangeEvent> last, LastEvent(*it));
    if (last) return last->token;
  }
  return uint64_t{0};
}

Result<uint64_t> ChangeLogStore::FirstToken() {
  FOLIO_ASSIGN_OR_RETURN(std::vector<Segment> segments, Segments());
  for (const Segment& s : segments) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<ChangeEvent> events, ReadSegment(s, 0, 1));
    if (!events.empty()) return events.front().token;
  }
  return uint64_t{0};
}

Result<bool> ChangeLogStore::Truncated() {
  auto st = fs_.Stat(JoinPath(dir_, kChangeLogTruncatedName));
  if (st.ok()) return true;
  if (IsNoEntry(st.status())) return false;
  return st.status();
}

Status ChangeLogStore::Append(const std::vector<ChangeEvent>& events) {
  if (events.empty()) return OkStatus();
  std::lock_guard<std::mutex> lock(mu_);
  // The tail as last written, when the file still has that size (then the directory
  // exists and the file ends with a whole line); else read it.
  std::optional<Tail> tail;
  if (tail_) {
    auto st = fs_.Stat(JoinPath(dir_, tail_->name));
    if (st.ok() && st->size == tail_->size) tail = tail_;
  }
  tail_.reset();
  const bool known_tail = tail.has_value();
  if (!tail) {
    Status made = fs_.MakeDir(dir_);
    if (!made.ok() && !made.Is(std::errc::file_exists)) return made;
    FOLIO_ASSIGN_OR_RETURN(std::vector<Segment> segments, Segments());
    if (!segments.empty()) {
      FOLIO_ASSIGN_OR_RETURN(std::vector<ChangeEvent> in_last, ReadSegment(segments.back(), 0, SIZE_MAX));
      FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(JoinPath(dir_, segments.back().name)));
      tail = Tail{segments.back().name, st.size, in_last.size(), in_last.empty() ? 0 : in_last.back().token};
    }
  }
  size_t i = 0;
  const uint64_t last = tail ? tail->last : 0;
  while (i < events.size() && events[i].token <= last) ++i;  // applied before
  if (i == events.size()) {
    tail_ = tail;
    return OkStatus();
  }
  bool new_segment = false;
  if (!tail || tail->count >= limits_.segment_events) {
    tail = Tail{ChangeLogSegmentName(events[i].token), 0, 0, last};
    new_segment = true;
  }
  const std::string path = JoinPath(dir_, tail->name);
  FOLIO_ASSIGN_OR_RETURN(auto file, fs_.OpenRandomAccess(path));
  FOLIO_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  std::string lines;
  const size_t first_new = i;
  if (size > 0 && !(known_tail && size == tail->size)) {
    // A torn last line (a crash mid-append) is closed so the next event starts clean.
    char end = '\n';
    FOLIO_ASSIGN_OR_RETURN(size_t n, file->ReadAt(size - 1, &end, 1));
    if (n == 1 && end != '\n') lines.push_back('\n');
  }
  for (; i < events.size(); ++i) {
    events[i].AppendJson(lines);
    lines.push_back('\n');
    ++tail->count;
    tail->last = events[i].token;
  }
  FOLIO_RETURN_IF_ERROR(file->WriteAt(size, lines));
  tail->size = size + lines.size();
  tail_ = tail;
  if (listener_) {
    listener_(first_new == 0 ? events : std::vector<ChangeEvent>(events.begin() + static_cast<std::ptrdiff_t>(first_new),
                                                                 events.end()));
  }
  if (new_segment) FOLIO_RETURN_IF_ERROR(DropOldSegments());
  return OkStatus();
}

Status ChangeLogStore::DropOldSegments() {
  // Retention: drop whole segments, oldest first, while the rest still hold the limit.
  FOLIO_ASSIGN_OR_RETURN(std::vector<Segment> segments, Segments());
  if (segments.size() < 2 || !tail_) return OkStatus();
  uint64_t kept = tail_->last + 1 - segments.back().first;
  size_t drop = 0;
  for (size_t k = segments.size() - 1; k-- > 0;) {
    // `kept`: the events of segments k+1 and newer; when they hold the limit, segment k
    // and every older one go.
    if (kept >= limits_.max_events) {
      drop = k + 1;
      break;
    }
    kept += segments[k + 1].first - segments[k].first;
  }
  if (drop == 0) return OkStatus();
  // The marker first: a crash between the two leaves "incomplete" said, never hidden.
  FOLIO_RETURN_IF_ERROR(fs_.OpenRandomAccess(JoinPath(dir_, kChangeLogTruncatedName)).status());
  for (size_t d = 0; d < drop; ++d) {
    Status s = fs_.Remove(JoinPath(dir_, segments[d].name));
    if (!s.ok() && !IsNoEntry(s)) return s;
  }
  return OkStatus();
}

Result<std::vector<ChangeEvent>> ChangeLogStore::Read(uint64_t from, size_t max) {
  std::vector<ChangeEvent> out;
  FOLIO_ASSIGN_OR_RETURN(std::vector<Segment> segments, Segments());
  {
    // The marks of segments dropped by the limit go.
    std::lock_guard<std::mutex> lock(marks_mu_);
    std::erase_if(marks_, [&](const auto& m) {
      return std::none_of(segments.begin(), segments.end(), [&](const Segment& s) { return s.name == m.first; });
    });
  }
  for (size_t k = 0; k < segments.size() && out.size() < max; ++k) {
    // Skip segments wholly before `from`.
    if (k + 1 < segments.size() && segments[k + 1].first <= from) continue;
    FOLIO_ASSIGN_OR_RETURN(std::vector<ChangeEvent> events, ReadSegment(segments[k], from, max - out.size()));
    for (ChangeEvent& e : events) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace folio::storage
