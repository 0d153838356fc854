// cpp-httplib serving Folio's calls; see engine.h.
#include "http/engine.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include <spdlog/spdlog.h>

#include "api/answer_buffers.h"
#include "api/ascii.h"
#include "api/framing_rules.h"
#include "api/url.h"
#include "http/call.h"
#include "http/server.h"
#include "http/thread_pool.h"

namespace folio::http {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kReadChunk = 16 * 1024;
// Response bytes are gathered up to this much before a send: a response's head and a
// small body leave in one send.
constexpr size_t kWriteBuffer = 16 * 1024;
constexpr size_t kStreamPiece = 64 * 1024;
constexpr std::chrono::milliseconds kStopPoll{200};  // how often a waiting connection looks at Stop()
// Once the server stops, a response that makes no progress for this long is cut.
constexpr std::chrono::seconds kStopWriteGrace{1};
// An idle connection thread retires after this long.
constexpr std::chrono::seconds kIdleThread{10};
// The fields the library adds to a request's headers itself (after the client's).
constexpr const char* kLibraryFields[] = {"REMOTE_ADDR", "REMOTE_PORT", "LOCAL_ADDR", "LOCAL_PORT"};

// For poll(2): rounded up, so that a wait never ends before `deadline`.
int MsUntil(Clock::time_point deadline) {
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return ms <= 0 ? 0 : static_cast<int>(std::min<long long>(ms, 1000 * 1000));
}

std::string Seconds(std::chrono::milliseconds d) {
  const auto ms = d.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// One end of a connection, numeric ("127.0.0.1", port): the socket's, once per
// connection (the library asks for both ends at every request).
struct Endpoint {
  std::string ip;
  int port = -1;
};

Endpoint EndpointOf(int fd, bool peer) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  char host[NI_MAXHOST];
  char serv[NI_MAXSERV];
  Endpoint e;
  if ((peer ? ::getpeername : ::getsockname)(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0 &&
      ::getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof(host), serv, sizeof(serv),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    e = Endpoint{host, std::atoi(serv)};
  }
  return e;
}

// The refusal of a request the head checks stopped (or that did not arrive in time).
struct Refusal {
  int status = 0;
  std::string message;
  HttpHead head;  // what is known of it: method and target once the request line is whole
};

}  // namespace

// The per-request state of the connection this thread serves.
struct Engine::Current {
  ConnectionStream* stream = nullptr;
  std::vector<std::pair<std::string, std::string>> headers;  // as sent
  std::unique_ptr<Call> call;
  bool close = false;  // the body was not read to its end, or the response closes
  bool http10 = false;
  bool has_body = false;
  bool streaming = false;
  int status = 0;      // of the response written (the library's logger reports it)
};

namespace {
thread_local Engine::Current* tls_current = nullptr;
}

// The connection's socket as the library reads and writes it: one read buffer for the
// connection's life (pipelined input stays in it), deadlines per request, the head
// checks of engine.h before the library sees a byte of a request, and one write buffer
// (the library writes a response in several pieces: they leave in one send, at Flush()
// or once the buffer is full; before any wait for input, so that a 100 Continue is seen).
class Engine::ConnectionStream final : public httplib::Stream {
 public:
  enum class Head { kReady, kClosed, kRefused };

  ConnectionStream(int fd, const EngineLimits& limits, metrics::HttpMetrics& metrics, const std::atomic<bool>& stopping)
      : fd_(fd),
        limits_(limits),
        metrics_(metrics),
        stopping_(stopping),
        peer_(EndpointOf(fd, true)),
        local_(EndpointOf(fd, false)) {}

  // Waits (up to the keep-alive timeout, or until the server stops) for the next request
  // and gathers its head. kRefused: refusal() says why.
  Head ReadHead() {
    Compact();
    sent_ = written_ = 0;
    response_head_ = 0;
    unbuffered_ = false;
    timed_out_ = false;
    chunk_ = ChunkState::kNone;
    bare_lf_ = false;
    const auto idle_deadline = Clock::now() + limits_.keep_alive_timeout;
    while (true) {  // empty lines before a request line are skipped (RFC 9112 §2.2)
      while (pos_ + 2 <= in_.size() && in_[pos_] == '\r' && in_[pos_ + 1] == '\n') pos_ += 2;
      if (pos_ < in_.size() && !(in_.size() - pos_ == 1 && in_[pos_] == '\r')) break;
      if (stopping_) return Head::kClosed;
      const auto slice = std::min(idle_deadline, Clock::now() + kStopPoll);
      switch (Receive(slice)) {
        case Got::kBytes: continue;
        case Got::kTimeout:
          if (Clock::now() >= idle_deadline) return Head::kClosed;
          continue;
        case Got::kClosed: return Head::kClosed;
      }
    }
    start_ = Clock::now();
    timed_out_ = false;  // the idle wait's slices do not count
    const auto deadline = start_ + limits_.request_timeout;
    size_t scanned = pos_;
    size_t line_start = pos_;
    size_t lines = 0;
    while (true) {
      while (scanned < in_.size()) {
        const char* lf = static_cast<const char*>(std::memchr(in_.data() + scanned, '\n', in_.size() - scanned));
        if (lf == nullptr) {
          scanned = in_.size();
          break;
        }
        const size_t end = static_cast<size_t>(lf - in_.data());
        if (end == line_start || in_[end - 1] != '\r') {
          return Refuse(400, "a line of the request head ends in a bare LF: lines end with CRLF");
        }
        const std::string_view line(in_.data() + line_start, end - 1 - line_start);
        if (line.size() > limits_.max_line_bytes) return Refuse(431, LineTooLong());
        scanned = line_start = end + 1;
        if (line.empty()) return Complete(scanned);
        if (lines > 0 && (line.front() == ' ' || line.front() == '\t')) {
          return Refuse(400, "header field line " + api::QuoteForMessage(line) +
                                 " starts with a space (obsolete line folding is not accepted)");
        }
        if (lines > 0 && line.find(':') == std::string_view::npos) {
          return Refuse(400, "malformed header field " + api::QuoteForMessage(line) + ": expected NAME: VALUE");
        }
        if (lines == 0) request_line_ = line;
        if (++lines > limits_.max_header_fields + 1) {
          return Refuse(431, "the request has more than the limit of " + std::to_string(limits_.max_header_fields) +
                                 " header fields");
        }
      }
      if (in_.size() - pos_ > limits_.max_header_bytes) {
        return Refuse(431, "the request line and headers are larger than the limit of " +
                               std::to_string(limits_.max_header_bytes) + " bytes");
      }
      if (in_.size() - line_start > limits_.max_line_bytes) return Refuse(431, LineTooLong());
      switch (Receive(deadline)) {
        case Got::kBytes: continue;
        case Got::kTimeout: return Refuse(408, TimeoutMessage());
        case Got::kClosed: return Head::kClosed;
      }
    }
  }

  // The current request's body is chunked: read() checks that every line of its framing
  // ends in CRLF (the library takes a bare LF), so that no proxy before Folio can frame
  // it differently.
  void ExpectChunked() { chunk_ = ChunkState::kSize; }
  bool bare_lf() const { return bare_lf_; }

  const Refusal& refusal() const { return refusal_; }
  // The request's body did not arrive before its deadline.
  bool timed_out() const { return timed_out_; }
  std::string TimeoutMessage() const {
    return "the request did not arrive in full within " + Seconds(limits_.request_timeout) + " of its first byte";
  }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  uint64_t body_bytes_sent() const { return sent_ > response_head_ ? sent_ - response_head_ : 0; }

  // Writes a refusal the library never saw (the head checks failed).
  bool WriteRaw(const std::string& bytes) { return write(bytes.data(), bytes.size()) >= 0 && Flush(); }
  // Sends what the write buffer holds. False when the connection failed.
  bool Flush() const { return Send(nullptr, 0); }
  // From now until the next request, every write is sent at once (a streamed body: each
  // part reaches the client as it is made).
  void Unbuffered() { unbuffered_ = true; }

  // Closes the socket. With `linger`, half-closes first, then reads and drops what the
  // client still sends until it pauses for linger_timeout (request_timeout at most):
  // closing with unread input would reset the connection, which can destroy the
  // response before it is read.
  void Close(bool linger) {
    if (!linger) {
      ::close(fd_);
      return;
    }
    ::shutdown(fd_, SHUT_WR);
    const auto end = Clock::now() + limits_.request_timeout;
    char drop[kReadChunk];
    while (Clock::now() < end) {
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, std::min(MsUntil(end), static_cast<int>(limits_.linger_timeout.count())));
      if (ready <= 0) break;
      const ssize_t n = httplib::detail::read_socket(fd_, drop, sizeof drop, 0);
      if (n <= 0) break;
      metrics_.AddBytesIn(static_cast<uint64_t>(n));
    }
    ::close(fd_);
  }

  // httplib::Stream.
  bool is_readable() const override {
    return pos_ < in_.size() || (Flush() && Wait(POLLIN, start_ + limits_.request_timeout));
  }
  bool is_writable() const override { return WaitWritable(); }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ == in_.size()) {
      Compact();
      if (!Flush() || Receive(start_ + limits_.request_timeout) != Got::kBytes) return -1;
    }
    size_t n = std::min(size, in_.size() - pos_);
    if (chunk_ != ChunkState::kNone) {
      n = CheckChunked(n);
      if (bare_lf_) return -1;
    }
    if (n == 1) {  // the library reads a request's head a byte per call
      *ptr = in_[pos_++];
      return 1;
    }
    std::memcpy(ptr, in_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (response_head_ == 0 && size > 9 && std::memcmp(ptr, "HTTP/1.1 ", 9) == 0 &&
        std::memcmp(ptr + 9, "100 ", 4) != 0) {
      // The response's head: the library writes it in one piece, before the body.
      const std::string_view text(ptr, size);
      const size_t end = text.find("\r\n\r\n");
      response_head_ = written_ + (end == std::string_view::npos ? size : end + 4);
    }
    written_ += size;
    if (!unbuffered_ && out_.size() + size <= kWriteBuffer) {
      out_.append(ptr, size);
      return static_cast<ssize_t>(size);
    }
    return Send(ptr, size) ? static_cast<ssize_t>(size) : -1;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { ip = peer_.ip; port = peer_.port; }
  void get_local_ip_and_port(std::string& ip, int& port) const override { ip = local_.ip; port = local_.port; }
  socket_t socket() const override { return fd_; }

 private:
  enum class Got { kBytes, kTimeout, kClosed };
  enum class ChunkState { kNone, kSize, kData, kDataEnd, kTrailer, kDone };

  // Walks the chunk framing over the next `n` bytes of in_ (at most: a line's bytes are
  // taken one at a time, as the library reads them); returns how many may be handed over.
  size_t CheckChunked(size_t n) {
    const char* p = in_.data() + pos_;
    switch (chunk_) {
      case ChunkState::kData: {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(n, chunk_left_));
        chunk_left_ -= take;
        if (chunk_left_ == 0) chunk_ = ChunkState::kDataEnd;
        return take;
      }
      case ChunkState::kNone:
      case ChunkState::kDone:
        return n;
      default:
        break;
    }
    // One byte of a line: a size line, the CRLF after a chunk's data, or a trailer line.
    const char c = *p;
    if (c == '\n') {
      if (prev_ != '\r') {
        bare_lf_ = true;
        return 0;
      }
      if (chunk_ == ChunkState::kSize) {
        // (An empty size line: the library refuses the body.)
        chunk_ = line_bytes_ == 0 ? ChunkState::kSize : chunk_left_ == 0 ? ChunkState::kTrailer : ChunkState::kData;
      } else if (chunk_ == ChunkState::kDataEnd) {
        chunk_ = ChunkState::kSize;
      } else if (line_bytes_ == 0) {
        chunk_ = ChunkState::kDone;  // the empty line after the trailer
      }
      line_bytes_ = 0;
      in_size_ = true;
      chunk_left_ = chunk_ == ChunkState::kData ? chunk_left_ : 0;
    } else {
      if (chunk_ == ChunkState::kSize && in_size_) {
        const int digit = std::isxdigit(static_cast<unsigned char>(c)) == 0 ? -1
                          : c <= '9'                                     ? c - '0'
                                                                         : (c | 0x20) - 'a' + 10;
        if (digit < 0) {
          in_size_ = false;  // an extension, or malformed (the library refuses that)
        } else if (chunk_left_ < (uint64_t{1} << 59)) {
          chunk_left_ = chunk_left_ * 16 + static_cast<uint64_t>(digit);
        }
      }
      if (c != '\r') ++line_bytes_;
    }
    prev_ = c;
    return 1;
  }

  // Waits for `events` on the socket until `deadline`.
  bool Wait(short events, Clock::time_point deadline) const {
    while (true) {
      pollfd p{fd_, events, 0};
      const int ready = ::poll(&p, 1, MsUntil(deadline));
      if (ready > 0) return true;
      if (ready == 0 || errno != EINTR) return false;
    }
  }

  // Waits until the socket takes more: up to write_timeout without progress, and once the
  // server stops, up to kStopWriteGrace (a client that has stopped reading cannot hold
  // Stop() up; one that reads gets the whole response).
  bool WaitWritable() const {
    const auto start = Clock::now();
    while (true) {
      const auto limit = start + (stopping_ ? std::chrono::milliseconds(kStopWriteGrace) : limits_.write_timeout);
      if (Clock::now() >= limit) return false;
      if (Wait(POLLOUT, std::min(limit, Clock::now() + kStopPoll))) return true;
    }
  }

  // Sends the write buffer, then `size` bytes at `ptr`, together (sendmsg: a writev that
  // raises no SIGPIPE); waits (WaitWritable) while the socket takes nothing.
  bool Send(const char* ptr, size_t size) const {
    size_t buffered = out_.size();
    size_t done = 0;  // of the buffer, then of `ptr`
    while (buffered + size > 0) {
      iovec io[2] = {{out_.data() + done, buffered}, {const_cast<char*>(ptr), size}};
      msghdr msg{};
      msg.msg_iov = buffered > 0 ? io : io + 1;
      msg.msg_iovlen = buffered > 0 ? 2 : 1;
      const ssize_t n = ::sendmsg(fd_, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0) {
        if ((errno == EINTR) || ((errno == EAGAIN || errno == EWOULDBLOCK) && WaitWritable())) continue;
        break;
      }
      size_t sent = static_cast<size_t>(n);
      sent_ += sent;
      metrics_.AddBytesOut(sent);
      const size_t from_buffer = std::min(sent, buffered);
      done += from_buffer;
      buffered -= from_buffer;
      sent -= from_buffer;
      ptr += sent;
      size -= sent;
    }
    out_.clear();
    return buffered + size == 0;
  }

  // Appends what the socket has (waiting until `deadline` for it) to in_.
  Got Receive(Clock::time_point deadline) {
    while (!Wait(POLLIN, deadline)) {
      if (Clock::now() >= deadline) {
        timed_out_ = true;
        return Got::kTimeout;
      }
    }
    char buf[kReadChunk];  // not in_ grown by kReadChunk: that zero-fills it, each time
    const ssize_t n = httplib::detail::read_socket(fd_, buf, sizeof buf, 0);  // EINTR retried
    if (n <= 0) return Got::kClosed;
    in_.append(buf, static_cast<size_t>(n));
    metrics_.AddBytesIn(static_cast<uint64_t>(n));
    return Got::kBytes;
  }

  // Drops what has been read from the buffer; a large buffer (a long head) goes.
  void Compact() {
    if (pos_ == 0) return;
    in_.erase(0, pos_);
    pos_ = 0;
    if (in_.empty() && in_.capacity() > 4 * kReadChunk) std::string().swap(in_);
  }

  std::string LineTooLong() const {
    return "a line of the request head is longer than the limit of " + std::to_string(limits_.max_line_bytes) +
           " bytes";
  }

  Head Refuse(int status, std::string message) {
    refusal_.status = status;
    refusal_.message = std::move(message);
    refusal_.head = HttpHead();
    const std::string_view line = request_line_;
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 != std::string_view::npos) {
      refusal_.head.method = line.substr(0, sp1);
      refusal_.head.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    }
    request_line_.clear();
    in_.clear();
    pos_ = 0;
    return Head::kRefused;
  }

  // The head ends at `end`: checks the version, and escapes '%' in the header lines,
  // which the library percent-decodes ("%25" decodes to "%": the values arrive as sent).
  Head Complete(size_t end) {
    const std::string line = std::move(request_line_);
    request_line_.clear();
    const size_t sp = line.rfind(' ');
    const std::string_view version = sp == std::string::npos ? std::string_view() : std::string_view(line).substr(sp + 1);
    if (version.size() == 8 && version.substr(0, 5) == "HTTP/" && version[6] == '.' && version != "HTTP/1.1" &&
        version != "HTTP/1.0") {
      request_line_ = line;
      return Refuse(505, "HTTP version " + api::QuoteForMessage(version.substr(5)) + " is not supported: use HTTP/1.1");
    }
    const size_t fields = pos_ + line.size() + 2;
    if (std::memchr(in_.data() + fields, '%', end - fields) != nullptr) {
      std::string head(in_, pos_, fields - pos_);
      for (size_t i = fields; i < end; ++i) {
        if (in_[i] == '%') {
          head += "%25";
        } else {
          head += in_[i];
        }
      }
      head.append(in_, end, std::string::npos);
      in_ = std::move(head);
      pos_ = 0;
    }
    return Head::kReady;
  }

  const int fd_;
  const EngineLimits& limits_;
  metrics::HttpMetrics& metrics_;
  const std::atomic<bool>& stopping_;
  const Endpoint peer_;
  const Endpoint local_;
  std::string in_;  // received; in_[pos_..] not yet read
  size_t pos_ = 0;
  std::string request_line_;
  Refusal refusal_;
  Clock::time_point start_ = Clock::now();  // the request's first byte
  bool timed_out_ = false;
  ChunkState chunk_ = ChunkState::kNone;
  uint64_t chunk_left_ = 0;  // of the chunk's data (or, in its size line, the size so far)
  size_t line_bytes_ = 0;    // of the framing line being read, CR excluded
  bool in_size_ = true;      // still in the size digits of a size line
  char prev_ = 0;
  bool bare_lf_ = false;
  mutable std::string out_;        // written, not yet sent
  mutable uint64_t sent_ = 0;      // bytes of this request's responses sent
  uint64_t written_ = 0;           // bytes of this request's responses written (sent or in out_)
  uint64_t response_head_ = 0;     // written_ at the end of the final response's head (0: none yet)
  bool unbuffered_ = false;
};

namespace {

// A response the library never saw: a refusal of a head that did not pass the checks.
std::string RawResponse(const api::Response& r) {
  const char* reason = r.status == 408   ? "Request Timeout"
                       : r.status == 431 ? "Request Header Fields Too Large"
                       : r.status == 505 ? "HTTP Version Not Supported"
                                         : "Bad Request";
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason + "\r\n";
  for (const auto& [name, value] : r.headers) out += name + ": " + value + "\r\n";
  if (!r.content_type.empty()) out += "Content-Type: " + r.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(r.body.size()) + "\r\nConnection: close\r\n\r\n";
  out += r.body;
  return out;
}

// Body framing (docs/API.md §3.9), checked before anything else: the library would read
// some framings Folio refuses (several lengths or codings, a coding other than chunked)
// its own way. Sets head.content_length; on an error, `status` is the one to answer.
Status CheckFraming(HttpHead& head, int& status) {
  std::vector<std::string_view> codings;
  bool seen = false;
  for (const auto& [name, value] : head.headers) {
    if (api::EqualsIgnoreCase(name, "Transfer-Encoding")) codings.push_back(value);
    if (!api::EqualsIgnoreCase(name, "Content-Length")) continue;
    // Digits only (RFC 9110 §8.6); several equal values are one.
    uint64_t n = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    const bool digits = !value.empty() && ec == std::errc() && ptr == value.data() + value.size();
    if (!digits || (seen && n != head.content_length)) {
      return InvalidArgument("malformed Content-Length " + api::QuoteForMessage(value));
    }
    head.content_length = n;
    seen = true;
  }
  FOLIO_RETURN_IF_ERROR(api::CheckTransferEncodings(codings));
  if (!codings.empty() && !api::EqualsIgnoreCase(codings.front(), "chunked")) {
    status = 501;
    return NotSupported("Transfer-Encoding " + api::QuoteForMessage(codings.front()) +
                        " is not supported: use chunked");
  }
  // RFC 9112 §6.3: both framings at once is how requests are smuggled.
  if (!codings.empty() && seen) return InvalidArgument("the request has both Transfer-Encoding and Content-Length");
  return OkStatus();
}

}  // namespace

Engine::Engine(http::Server& server, const EngineLimits& limits, metrics::HttpMetrics& metrics)
    : server_(server), limits_(limits), metrics_(metrics) {
  new_task_queue = [this] {
    auto* pool = new GrowingPool(limits_.min_threads, std::max<size_t>(1, limits_.max_connections), kIdleThread);
    pool_ = pool;
    return pool;
  };
  // No SO_REUSEPORT (the library's default sets it): a taken port is an error. The
  // listening socket is Folio's own (listener.h), so this applies only if the library
  // ever binds one itself.
  set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  set_keep_alive_max_count(limits_.keep_alive_max_count);
  set_keep_alive_timeout(std::max<time_t>(1, limits_.keep_alive_timeout.count() / 1000));
  set_read_timeout(limits_.request_timeout);
  set_write_timeout(limits_.write_timeout);
  InstallHandlers();
}

Engine::~Engine() { Stop(); }

bool Engine::Serve(int fd) {
  svr_sock_ = fd;
  const bool ok = listen_after_bind();
  pool_ = nullptr;  // deleted by the library as listen_after_bind() returned
  svr_sock_ = INVALID_SOCKET;
  return ok || stopping_;
}

void Engine::Stop() {
  if (stopping_.exchange(true)) return;
  // Not httplib::Server::stop(): it marks the server as shutting down, and the library
  // then cuts the responses being streamed short with a length it announced. Shutting
  // the socket down ends the accept loop alone.
  // The pool first: once the listening socket is shut down, Serve() may return at any
  // moment, and the library deletes the pool then.
  if (GrowingPool* pool = pool_) pool->Release();
  const socket_t sock = svr_sock_;
  if (sock != INVALID_SOCKET) ::shutdown(sock, SHUT_RDWR);
  std::lock_guard<std::mutex> lock(streaming_mu_);
  for (int fd : streaming_) ::shutdown(fd, SHUT_RDWR);
}

void Engine::StreamingBegins(int fd) {
  std::lock_guard<std::mutex> lock(streaming_mu_);
  if (stopping_) ::shutdown(fd, SHUT_RDWR);
  streaming_.insert(fd);
}

void Engine::StreamingEnds(int fd) {
  std::lock_guard<std::mutex> lock(streaming_mu_);
  streaming_.erase(fd);
}

// The one override of a private member of the library (0.11.4: see the static_assert):
// its own loop reads each request with a fresh stream (losing pipelined input), has no
// bound on the head, and keeps a connection whose request body was left unread.
bool Engine::process_and_close_socket(socket_t sock) {
  metrics_.ConnectionOpened();
  // The library sets TCP_NODELAY on a listening socket it made; this one is Folio's
  // (listener.h). A streamed or large response leaves in several sends: without it, the
  // second waits for the client's delayed ACK.
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  ConnectionStream stream(sock, limits_, metrics_, stopping_);
  bool linger = true;
  for (size_t served = 0;; ++served) {
    // Between requests, idle: closing loses the client nothing (no response unread).
    const ConnectionStream::Head head =
        stopping_ && served > 0 ? ConnectionStream::Head::kClosed : stream.ReadHead();
    if (head == ConnectionStream::Head::kClosed) {
      linger = false;
      break;
    }
    Current current;
    current.stream = &stream;
    const bool last = stopping_ || served + 1 >= limits_.keep_alive_max_count;
    bool client_closes = false;
    bool written = false;
    if (head == ConnectionStream::Head::kRefused) {  // the library never sees this request
      const Refusal& refusal = stream.refusal();
      current.call = server_.Refuse(refusal.status, refusal.message, refusal.head);
      const api::Response r = current.call->Respond();
      current.status = r.status;
      current.close = true;
      written = stream.WriteRaw(RawResponse(r));
    } else {
      tls_current = &current;
      written = process_request(stream, last, client_closes, [&](httplib::Request& req) {
        // What the client sent, before the library's own fields and the ones taken from
        // it: Content-Type (so that a multipart body reaches Folio's parser as it is) and
        // Accept-Encoding (Folio's answers are not compressed again). One pass: the map's
        // own lookups fold case a character at a time. The last field of each library
        // name is the library's (it adds them after the client's).
        auto library = std::to_array({req.headers.end(), req.headers.end(), req.headers.end(), req.headers.end()});
        bool chunked = false;
        const std::string* connection = nullptr;  // the first Connection field's value
        for (auto it = req.headers.begin(); it != req.headers.end(); ++it) {
          for (size_t i = 0; i < library.size(); ++i) {
            if (api::EqualsIgnoreCase(it->first, kLibraryFields[i])) library[i] = it;
          }
          chunked = chunked || api::EqualsIgnoreCase(it->first, "Transfer-Encoding");
          if (connection == nullptr && api::EqualsIgnoreCase(it->first, "Connection")) connection = &it->second;
        }
        for (auto it : library) {
          if (it != req.headers.end()) req.headers.erase(it);
        }
        current.headers.assign(req.headers.begin(), req.headers.end());
        for (auto it = req.headers.begin(); it != req.headers.end();) {
          const bool taken = api::EqualsIgnoreCase(it->first, "Content-Type") ||
                             api::EqualsIgnoreCase(it->first, "Accept-Encoding");
          it = taken ? req.headers.erase(it) : std::next(it);
        }
        req.ranges.clear();  // Folio answers Range itself
        current.http10 = req.version == "HTTP/1.0";
        if (chunked) stream.ExpectChunked();
        const bool keep_alive = connection != nullptr && *connection == "Keep-Alive";
        // HTTP/1.0 closes after the response unless the client asks to keep it (the
        // library's rule: it closes; the response says so).
        if (current.http10 && !keep_alive) current.close = true;
      });
      tls_current = nullptr;
      written = stream.Flush() && written;
    }
    if (current.streaming) StreamingEnds(sock);
    if (current.call) {
      Outcome outcome;
      outcome.status = current.status;
      outcome.body_bytes = stream.body_bytes_sent();
      outcome.seconds = stream.seconds();
      outcome.complete = written;
      current.call->Done(outcome);
    }
    if (!written || client_closes || last || current.close) break;
  }
  stream.Close(linger);
  metrics_.ConnectionClosed();
  return true;
}

Call& Engine::Begin(const httplib::Request& req, Current& current) {
  if (current.call) return *current.call;
  HttpHead head;
  head.method = req.method;
  head.target = req.target;
  head.minor_version = current.http10 ? 0 : 1;
  head.headers = current.headers;
  head.peer_address = req.remote_addr;  // the library asked the stream: the socket's
  head.local_address = req.local_addr;
  head.local_port = req.local_port;
  int status = 400;
  const Status framing = CheckFraming(head, status);
  current.has_body = req.has_header("Transfer-Encoding") || head.content_length > 0;
  if (!framing.ok()) {
    current.call = server_.Refuse(status, std::string(framing.message()), head);
    current.close = true;  // the body's framing is unknown
    return *current.call;
  }
  // The library reads the body of POST (and PUT, PATCH, DELETE) only; Folio serves no
  // other method with a body. The server refuses most of those methods itself.
  const bool misplaced_body = current.has_body && req.method != "POST";
  current.call = server_.Begin(misplaced_body ? head : std::move(head));
  if (misplaced_body && current.call->WantsBody()) {
    current.call = server_.Refuse(400, "a " + req.method + " request carries no body", head);
  }
  if (current.has_body && !current.call->WantsBody()) current.close = true;  // the body stays unread
  return *current.call;
}

void Engine::Fill(Current& current, httplib::Response& res) {
  api::Response r = current.call->Respond();
  res.status = r.status;
  if (r.drop_connection) {
    // Nothing is sent (a fault the request asked for): the connection just ends.
    ::shutdown(current.stream->socket(), SHUT_RDWR);
    current.close = true;
    return;
  }
  std::string content_type = std::move(r.content_type);
  for (auto& [name, value] : r.headers) {  // the browse UI's files carry theirs among them
    if (api::EqualsIgnoreCase(name, "Content-Type")) {
      content_type = std::move(value);
    } else {
      res.headers.emplace(std::move(name), std::move(value));
    }
  }
  if (stopping_) current.close = true;
  if (r.stream) {
    if (r.length == 0) {
      res.set_content("", content_type);
    } else {
      auto file = std::shared_ptr<ReadableFile>(std::move(r.stream));
      auto next = std::make_shared<uint64_t>(UINT64_MAX);  // the offset the file is at
      const uint64_t base = r.offset;
      res.set_content_provider(
          static_cast<size_t>(r.length), content_type,
          [file, next, base](size_t offset, size_t length, httplib::DataSink& sink) {
            if (*next != offset) {
              if (!file->Seek(base + offset).ok()) return false;
              *next = offset;
            }
            std::string piece(std::min(length, kStreamPiece), '\0');
            auto n = file->Read(piece.data(), piece.size());
            if (!n.ok() || *n == 0) return false;  // the file shrank: the length sent was wrong
            *next += *n;
            return sink.write(piece.data(), *n);
          });
    }
  } else if (r.producer) {
    auto producer = std::shared_ptr<api::BodyProducer>(std::move(r.producer));
    auto first = std::make_shared<std::string>(std::move(r.body));
    auto provider = [producer, first, status = r.status](size_t, httplib::DataSink& sink) {
      if (!first->empty()) {  // an empty part would end the body
        const bool ok = sink.write(first->data(), first->size());
        std::string().swap(*first);
        return ok;
      }
      std::string piece;
      auto more = producer->Next(piece);
      if (!more.ok()) {
        // Cut short: without the last chunk (or, HTTP/1.0, the close after a whole
        // body) the client cannot take what it got for a whole response.
        spdlog::warn("a response of status {} was cut short: {}", status, more.status().message());
        return false;
      }
      if (!piece.empty() && !sink.write(piece.data(), piece.size())) return false;
      if (!*more) sink.done();
      return true;
    };
    current.streaming = true;
    current.stream->Unbuffered();
    StreamingBegins(current.stream->socket());
    if (current.http10) {
      current.close = true;  // no chunks in HTTP/1.0: closing ends the body
      res.set_content_provider(content_type, std::move(provider));
    } else {
      res.set_chunked_content_provider(content_type, std::move(provider));
    }
  } else if (!r.body.empty() && api::AnswerBuffers::Shared().Keeps(r.body.capacity())) {
    // A large body is sent from its buffer, which is given back once the response is
    // done with, to be written into again (api/answer_buffers.h).
    auto body = std::make_shared<std::string>(std::move(r.body));
    res.headers.erase("Content-Type");  // set once, by the library
    res.set_content_provider(
        body->size(), content_type,
        [body](size_t offset, size_t length, httplib::DataSink& sink) {
          if (offset >= body->size()) return false;
          return sink.write(body->data() + offset, std::min(length, body->size() - offset));
        },
        [body](bool) { api::AnswerBuffers::Shared().Give(std::move(*body)); });
  } else if (!r.body.empty() || !content_type.empty()) {
    // As set_content, whose only overload copies the body.
    res.body = std::move(r.body);
    res.headers.erase("Content-Type");
    res.set_header("Content-Type", content_type);
  }
  if (current.close) res.set_header("Connection", "close");
}

void Engine::InstallHandlers() {
  // Expect: 100-continue: the call decides before the client sends the body.
  set_expect_100_continue_handler([this](const httplib::Request& req, httplib::Response& res) {
    Current& current = *tls_current;
    if (Begin(req, current).WantsBody()) return 100;
    Fill(current, res);
    return res.status == 100 || res.status == 417 ? 400 : res.status;
  });
  // Every request goes through here, before its body is read: what needs no body (or
  // is refused) is answered at once; a body Folio wants goes to the POST handler.
  set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    Current& current = *tls_current;
    Call& call = Begin(req, current);
    if (current.has_body && call.WantsBody()) return HandlerResponse::Unhandled;
    Fill(current, res);
    return HandlerResponse::Handled;
  });
  // "[\s\S]*" and not ".*": a decoded path may hold a line break.
  Post(R"([\s\S]*)", [this](const httplib::Request&, httplib::Response& res, const httplib::ContentReader& reader) {
    Current& current = *tls_current;
    Call& call = *current.call;
    bool sink_failed = false;
    const bool read = reader([&](const char* data, size_t size) {
      if (call.OnBody(std::string_view(data, size)).ok()) return true;
      sink_failed = true;
      return false;
    });
    if (!read) {
      current.close = true;  // the rest of the body stays unread
      if (!sink_failed) {
        if (current.stream->bare_lf()) {
          call.OnBodyFailed(400, InvalidArgument("a line of the chunked body framing ends in a bare LF: "
                                                     "lines end with CRLF"));
        } else if (current.stream->timed_out()) {
          call.OnBodyFailed(408, InvalidArgument(current.stream->TimeoutMessage()));
        } else {
          call.OnBodyFailed(400, InvalidArgument("the request body could not be read: bad chunked encoding, "
                                                     "or the connection ended early"));
        }
      }
    }
    Fill(current, res);
  });
  // Statuses the library answers itself (a malformed request line or header, a malformed
  // Range; a target over its 8 KiB never reaches it: the head's line bound is the same):
  // Folio's JSON error, and the connection closes.
  set_error_handler(HandlerWithResponse([this](const httplib::Request& req, httplib::Response& res) {
    Current* current = tls_current;
    if (current == nullptr || current->call) return HandlerResponse::Unhandled;
    const std::string range = req.get_header_value("Range");
    std::string message = res.status == 416 ? "malformed Range header " + api::QuoteForMessage(range)
                                            : "malformed request line or header field";
    HttpHead head;
    head.method = req.method;
    head.target = req.target;
    current->call = server_.Refuse(res.status, std::move(message), head);
    current->close = true;
    res.headers.clear();
    Fill(*current, res);
    return HandlerResponse::Handled;
  }));
  set_logger([](const httplib::Request&, const httplib::Response& res) {
    if (tls_current != nullptr) tls_current->status = res.status;
  });
}

}  // namespace folio::http
