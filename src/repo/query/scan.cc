// Scanning a repository for the query index; see scan.h.
#include "repo/query/scan.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "repo/query/text_extract.h"
#include "storage/layout.h"
#include "storage/look_once.h"

namespace folio::query {
namespace {

constexpr uint64_t kPage = 100;
constexpr size_t kMaxQueued = 512;  // objects read but not yet visited

bool Gone(const Status& s) { return s.kind() == ErrorKind::kObjectNotFound || s.kind() == ErrorKind::kInvalidArgument; }

class Scan {
 public:
  Scan(Repository& repo, const std::atomic<bool>& stop, std::vector<std::string>* left_out,
       const std::function<void()>& pause)
      : repo_(repo), stop_(stop), left_out_(left_out), pause_(pause) {}

  Status Run(const std::function<Status(ScannedObject&&)>& visit, int workers) {
    auto root = repo_.GetObject(repo_.info().root_folder_id);
    if (!root.ok()) return root.status();
    folders_.emplace_back(root->id, "");
    FOLIO_RETURN_IF_ERROR(visit(ScannedObject{std::move(*root), ""}));
    // Counted before any starts: a worker may finish before the last one is made.
    const int n = std::max(1, workers);
    running_ = n;
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i) threads.emplace_back([this] { Worker(); });
    Status result = OkStatus();
    for (;;) {
      ScannedObject next;
      {
        std::unique_lock<std::mutex> lock(mu_);
        out_cv_.wait(lock, [&] { return !out_.empty() || running_ == 0; });
        if (out_.empty()) break;  // every worker has finished
        next = std::move(out_.front());
        out_.pop_front();
        space_cv_.notify_one();
      }
      if (!result.ok()) continue;  // drain what is queued while the workers stop
      result = stop_ ? RuntimeError("the scan was stopped") : visit(std::move(next));
      if (!result.ok()) Fail(result);
    }
    for (std::thread& t : threads) t.join();
    if (!result.ok()) return result;
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_.ok()) return error_;
    return stop_ ? RuntimeError("the scan was stopped") : OkStatus();
  }

 private:
  void Worker() {
    const Repository::ReadOnce read_once;  // each object is read once: none is kept
    for (;;) {
      std::pair<std::string, std::string> folder;  // id, path
      {
        std::unique_lock<std::mutex> lock(mu_);
        work_cv_.wait(lock, [&] { return failed_ || stop_ || !folders_.empty() || active_ == 0; });
        if (failed_ || stop_ || folders_.empty()) break;  // failed, stopped, or nothing is left to list
        folder = std::move(folders_.front());
        folders_.pop_front();
        ++active_;
      }
      Status s = OkStatus();
      try {
        s = Folder(folder.first, folder.second);
      } catch (const std::exception& e) {
        s = RuntimeError(std::string("reading folder '/") + folder.second + "' failed: " + e.what());
      }
      std::lock_guard<std::mutex> lock(mu_);
      --active_;
      if (!s.ok() && error_.ok()) {
        error_ = s;
        failed_ = true;
      }
      work_cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(mu_);
    --running_;
    work_cv_.notify_all();
    out_cv_.notify_all();
  }

  void Fail(const Status& s) {
    std::lock_guard<std::mutex> lock(mu_);
    failed_ = true;
    if (error_.ok()) error_ = s;
    work_cv_.notify_all();
    space_cv_.notify_all();
  }

  // Hands `o` to the visiting thread, waiting while it is behind.
  void Emit(ScannedObject&& o) {
    std::unique_lock<std::mutex> lock(mu_);
    space_cv_.wait(lock, [&] { return out_.size() < kMaxQueued || failed_ || stop_; });
    if (failed_ || stop_) return;
    out_.push_back(std::move(o));
    out_cv_.notify_one();
  }

  Status Folder(const std::string& folder, const std::string& path) {
    for (uint64_t skip = 0;;) {
      if (pause_) pause_();
      if (stop_ || failed_) return OkStatus();
      // The records a page's objects share (their folder's record, its adoption tables
      // and their directory) are looked at once per page (storage/look_once.h).
      const storage::LookOnce once;
      auto page = repo_.GetChildren(folder, skip, kPage);
      if (!page.ok()) {
        if (Gone(page.status())) return OkStatus();  // removed meanwhile
        if (!Repository::IsDamage(page.status())) return page.status();
        LeftOut(path);  // its own records are damaged: left out, with what it holds
        return OkStatus();
      }
      for (const DamagedChild& d : page->damaged) LeftOut(storage::JoinPath(path, d.name));
      for (ObjectData& child : page->objects) {
        if (child.base == BaseType::kDocument) {
          auto versions = repo_.GetAllVersions(child.id);
          if (!versions.ok()) {
            if (Gone(versions.status())) continue;
            if (!Repository::IsDamage(versions.status())) return versions.status();
            LeftOut(child.path);
            continue;
          }
          for (ObjectData& v : *versions) {
            if (v.is_pwc) continue;
            std::string text = ExtractText(repo_, v);
            Emit(ScannedObject{std::move(v), std::move(text)});
          }
          continue;
        }
        if (child.base == BaseType::kFolder) {
          std::lock_guard<std::mutex> lock(mu_);
          folders_.emplace_back(child.id, child.path);
          work_cv_.notify_one();
        }
        Emit(ScannedObject{std::move(child), ""});
      }
      // Positions in the listing: the damaged children held some of them.
      skip += page->objects.size() + page->damaged.size();
      if (!page->has_more || page->objects.size() + page->damaged.size() == 0) return OkStatus();
    }
  }

  void LeftOut(const std::string& path) {
    if (left_out_ == nullptr) return;
    std::lock_guard<std::mutex> lock(mu_);
    left_out_->push_back(path);
  }

  Repository& repo_;
  const std::atomic<bool>& stop_;
  std::vector<std::string>* left_out_;  // guarded by mu_
  const std::function<void()>& pause_;
  std::mutex mu_;
  std::condition_variable work_cv_, out_cv_, space_cv_;
  std::deque<std::pair<std::string, std::string>> folders_;  // to list: id, path
  int active_ = 0;                   // folders being listed
  int running_ = 0;                  // workers not finished
  std::atomic<bool> failed_{false};
  Status error_ = OkStatus();
  std::deque<ScannedObject> out_;  // read, to visit
};

}  // namespace

Status ScanRepository(Repository& repo, Fs& fs, const std::function<Status(ScannedObject&&)>& visit,
                      const std::atomic<bool>& stop, int workers, std::vector<std::string>* left_out,
                      const std::function<void()>& pause) {
  const Repository::ReadOnce read_once;  // as the workers' (Scan::Worker)
  FOLIO_RETURN_IF_ERROR(Scan(repo, stop, left_out, pause).Run(visit, workers));
  const RepositoryInfo& info = repo.info();
  const storage::RepoLayout layout(info.domain_id + "/" + info.repository_id);
  auto entries = fs.List(layout.RelationshipsDir());
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return OkStatus();
    return entries.status();
  }
  for (const DirEntry& e : *entries) {
    if (pause) pause();
    if (stop) return RuntimeError("the scan was stopped");
    const std::optional<std::string> id = storage::IdOfRecordFileName(e.name);
    if (e.type != FileType::kFile || !id) continue;
    auto rel = repo.GetObject(*id);
    if (!rel.ok() || rel->base != BaseType::kRelationship) continue;  // fsck reports stray files
    FOLIO_RETURN_IF_ERROR(visit(ScannedObject{std::move(*rel), ""}));
  }
  return OkStatus();
}

}  // namespace folio::query
