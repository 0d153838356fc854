// The buffered log output; see log_output.h.
#include "log/log_output.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>

#include "api/json_writer.h"
#include "storage/datetime.h"

namespace folio::logging {
namespace {

constexpr auto kFlushEvery = std::chrono::milliseconds(50);
constexpr size_t kFlushAt = 1024 * 1024;  // a burst this large is written at once

std::atomic<LogOutput*> current{nullptr};

void WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to complain
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

// The form of stored dates (storage::FormatIsoMs): one formatter of ISO 8601 times.
std::string IsoTime(std::chrono::system_clock::time_point t) {
  return storage::FormatIsoMs(std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count());
}

}  // namespace

struct LogOutput::Shared {
  int fd;
  std::mutex mu;
  std::condition_variable cv;
  std::string buffer;     // guarded by mu
  bool stopping = false;  // guarded by mu
  bool direct = false;    // guarded by mu: no flusher any more, write each line at once
  std::mutex write_mu;    // one writer at a time, so lines never interleave

  void Append(std::string_view line) {
    std::unique_lock<std::mutex> lock(mu);
    const bool first = buffer.empty();
    buffer.append(line);
    buffer.push_back('\n');
    if (direct || buffer.size() >= kFlushAt) {
      lock.unlock();
      Flush();
    } else if (first) {
      cv.notify_one();  // the flusher sleeps while there is nothing to write
    }
  }

  void Flush() {
    std::lock_guard<std::mutex> writing(write_mu);
    std::string out;
    {
      std::lock_guard<std::mutex> lock(mu);
      out.swap(buffer);
    }
    WriteAll(fd, out);
  }
};

namespace {

// spdlog's messages into the buffer, formatted as text or JSON.
class Sink final : public spdlog::sinks::sink {
 public:
  Sink(std::shared_ptr<LogOutput::Shared> shared, LogFormat format)
      : shared_(std::move(shared)), format_(format),
        formatter_(std::make_unique<spdlog::pattern_formatter>("[%Y-%m-%d %H:%M:%S.%e] [%n] [%l] %v",
                                                               spdlog::pattern_time_type::local, "")) {}

  void log(const spdlog::details::log_msg& msg) override {
    std::string line;
    if (format_ == LogFormat::kJson) {
      api::JsonWriter w(line);
      w.BeginObject();
      w.Key("time").String(IsoTime(msg.time));
      const spdlog::string_view_t level = spdlog::level::to_string_view(msg.level);
      w.Key("level").String(std::string_view(level.data(), level.size()));
      w.Key("message").String(std::string_view(msg.payload.data(), msg.payload.size()));
      w.EndObject();
    } else {
      spdlog::memory_buf_t buf;
      {
        std::lock_guard<std::mutex> lock(formatter_mu_);
        formatter_->format(msg, buf);
      }
      line.assign(buf.data(), buf.size());
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    }
    shared_->Append(line);
  }
  void flush() override { shared_->Flush(); }
  void set_pattern(const std::string& pattern) override {
    std::lock_guard<std::mutex> lock(formatter_mu_);
    formatter_ = std::make_unique<spdlog::pattern_formatter>(pattern);
  }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override {
    std::lock_guard<std::mutex> lock(formatter_mu_);
    formatter_ = std::move(formatter);
  }

 private:
  std::shared_ptr<LogOutput::Shared> shared_;
  const LogFormat format_;
  std::mutex formatter_mu_;
  std::unique_ptr<spdlog::formatter> formatter_;
};

}  // namespace

std::optional<LogFormat> ParseLogFormat(std::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return std::nullopt;
}

std::string IsoTimeNow() { return IsoTime(std::chrono::system_clock::now()); }

LogOutput::LogOutput(int fd, LogFormat format) : format_(format), shared_(std::make_shared<Shared>()) {
  shared_->fd = fd;
  flusher_ = std::thread([this] { Run(); });
}

LogOutput::~LogOutput() {
  LogOutput* self = this;
  current.compare_exchange_strong(self, nullptr);
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->stopping = true;
    shared_->direct = true;
  }
  shared_->cv.notify_all();
  flusher_.join();
  shared_->Flush();
}

void LogOutput::Install(spdlog::level::level_enum level) {
  auto logger = std::make_shared<spdlog::logger>("folio", std::make_shared<Sink>(shared_, format_));
  logger->set_level(level);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
  current = this;
}

void LogOutput::Append(std::string_view line) { shared_->Append(line); }

void LogOutput::Flush() { shared_->Flush(); }

LogOutput* LogOutput::Current() { return current.load(); }

void LogOutput::Run() {
  std::unique_lock<std::mutex> lock(shared_->mu);
  while (!shared_->stopping) {
    // Asleep while there is nothing to write; once there is, gather for 50 ms more.
    shared_->cv.wait(lock, [&] { return shared_->stopping || !shared_->buffer.empty(); });
    shared_->cv.wait_for(lock, kFlushEvery, [&] { return shared_->stopping; });
    lock.unlock();
    shared_->Flush();
    lock.lock();
  }
}

}  // namespace folio::logging
