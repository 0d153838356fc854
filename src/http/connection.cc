// The HTTP/1.1 connection state machine; see connection.h.
#include "http/connection.h"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <vector>

#include <spdlog/spdlog.h>

#include "api/ascii.h"
#include "http/metrics.h"

namespace folio::http {
namespace {

constexpr size_t kScratch = 64 * 1024;
// Bytes one event may read before the thread moves on (the socket stays ready, so epoll
// reports it again): a client that streams fast cannot keep a thread to itself.
constexpr size_t kReadPerEvent = 1024 * 1024;
// Bodies up to this size are copied behind the head and leave in one send.
constexpr size_t kGatherBody = 16 * 1024;
constexpr size_t kStreamChunk = 64 * 1024;

// The per-thread receive buffer: a connection keeps only what it has not consumed.
char* Scratch() {
  static thread_local std::vector<char> buffer(kScratch);
  return buffer.data();
}

const char* Reason(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 416: return "Range Not Satisfiable";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
  }
}

bool HasNoBody(int status) { return status < 200 || status == 204 || status == 304; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A Content-Length value: digits only (RFC 9110 §8.6); several equal values are one.
bool ParseLength(const HttpHead& head, uint64_t& length) {
  bool seen = false;
  for (const auto& [name, value] : head.headers) {
    if (!api::EqualsIgnoreCase(name, "Content-Length")) continue;
    uint64_t n = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size()) return false;
    if (seen && n != length) return false;
    length = n;
    seen = true;
  }
  return true;
}

}  // namespace

Connection::Connection(int fd, ExchangeFactory& factory, const ConnectionLimits& limits, HttpMetrics* metrics)
    : fd_(fd), factory_(factory), limits_(limits), metrics_(metrics), parser_(limits.head),
      last_activity_(Clock::now()) {
  UpdateDeadline();
}

Connection::~Connection() {
  Abandon();
  ::close(fd_);
}

bool Connection::idle() const {
  return (state_ == State::kHead && in_.empty() && !exchange_) || state_ == State::kLinger;
}

Connection::Interest Connection::OnEvent() {
  const Interest next = Run();
  last_activity_ = Clock::now();
  UpdateDeadline();
  return next;
}

Connection::Interest Connection::Run() {
  if (out_pos_ < out_.size() || body_pos_ < body_.size() || stream_left_ > 0) {
    switch (Flush()) {
      case Flushed::kBlocked: return Interest::kWrite;
      case Flushed::kError: return Interest::kClose;
      case Flushed::kDone: break;
    }
    if (state_ == State::kWriting) {
      const Interest next = ResponseSent();
      if (next != Interest::kRead) return next;
    }
  }
  if (state_ == State::kLinger) return Drain();
  const Interest next = Consume({});  // pipelined input read with the previous request
  if (next != Interest::kRead) return next;
  return ReadLoop();
}

Connection::Interest Connection::ReadLoop() {
  char* scratch = Scratch();
  size_t total = 0;
  while (true) {
    const ssize_t n = ::recv(fd_, scratch, kScratch, 0);
    if (n > 0) {
      if (metrics_ != nullptr) metrics_->AddBytesIn(static_cast<uint64_t>(n));
      const Interest next = Consume(std::string_view(scratch, static_cast<size_t>(n)));
      if (next != Interest::kRead) return next;
      if (state_ == State::kLinger) return Drain();
      total += static_cast<size_t>(n);
      // A short read has most likely emptied the socket; epoll says when more comes.
      if (static_cast<size_t>(n) < kScratch || total >= kReadPerEvent) return Interest::kRead;
      continue;
    }
    if (n == 0) return Interest::kClose;  // the client closed: an unfinished request is abandoned
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return Interest::kRead;
    return Interest::kClose;
  }
}

Connection::Interest Connection::Consume(std::string_view data) {
  while (true) {
    if (state_ == State::kHead) {
      if (!data.empty()) {
        if (in_.empty()) request_start_ = Clock::now();
        in_.append(data);
        data = {};
      }
      if (in_.empty()) return Interest::kRead;
      switch (parser_.Parse(in_)) {
        case HeadParser::State::kIncomplete:
          return Interest::kRead;
        case HeadParser::State::kError:
          return Refuse(parser_.error_status(), parser_.error_message(), parser_.head());
        case HeadParser::State::kComplete:
          break;
      }
      in_.erase(0, parser_.head_size());
      HttpHead head = std::move(parser_.head());
      parser_.Reset();
      const Interest next = BeginRequest(std::move(head));
      if (next != Interest::kRead || state_ == State::kLinger) return next;
      continue;
    }
    if (state_ == State::kBody) {
      const bool buffered = !in_.empty();  // bytes gathered before come first
      const std::string_view src = buffered ? std::string_view(in_) : data;
      if (src.empty()) return Interest::kRead;
      bool sink_failed = false;
      auto consumed = framer_.Feed(src, [this, &sink_failed](std::string_view bytes) {
        Status s = exchange_->OnBody(bytes);
        sink_failed = !s.ok();
        return s;
      });
      if (!consumed.ok()) {
        if (!sink_failed) exchange_->OnBodyFailed(400, consumed.status());
        in_.clear();
        return Respond(/*close_after=*/true);  // the rest of the body stays unread
      }
      if (buffered) {
        in_.erase(0, *consumed);
      } else {
        data.remove_prefix(*consumed);
      }
      if (!framer_.done()) continue;
      if (!data.empty()) {  // the next request, pipelined
        in_.append(data);
        data = {};
      }
      const Interest next = Respond(/*close_after=*/false);
      if (next != Interest::kRead || state_ == State::kLinger) return next;
      if (!in_.empty()) request_start_ = Clock::now();
      continue;
    }
    return Interest::kRead;  // not reached: writing and lingering do not consume
  }
}

Connection::Interest Connection::BeginRequest(HttpHead head) {
  is_head_ = head.method == "HEAD";
  http10_ = head.minor_version == 0;
  keep_alive_ = http10_ ? head.HasToken("Connection", "keep-alive") : !head.HasToken("Connection", "close");
  uint64_t length = 0;
  bool has_body = false;
  if (head.has_header("Transfer-Encoding")) {
    const std::string_view coding = Trim(head.header("Transfer-Encoding"));
    if (!api::EqualsIgnoreCase(coding, "chunked")) {
      return Refuse(501, "Transfer-Encoding '" + std::string(coding) + "' is not supported: use chunked", head);
    }
    // RFC 9112 §6.3: both framings at once is how requests are smuggled; refuse it.
    if (head.has_header("Content-Length")) {
      return Refuse(400, "the request has both Transfer-Encoding and Content-Length", head);
    }
    framer_ = BodyFramer::Chunked();
    has_body = true;
  } else {
    if (!ParseLength(head, length)) {
      return Refuse(400, "malformed Content-Length '" + std::string(head.header("Content-Length")) + "'", head);
    }
    framer_ = BodyFramer::Length(length);
    has_body = length > 0;
  }
  const bool expects_continue = !http10_ && head.HasToken("Expect", "100-continue");
  exchange_ = factory_.Begin(std::move(head), fd_);
  if (!has_body) return Respond(false);
  if (!exchange_->WantsBody()) return Respond(true);  // the body stays unread
  state_ = State::kBody;
  if (expects_continue && in_.empty()) {
    out_ = "HTTP/1.1 100 Continue\r\n\r\n";
    out_pos_ = 0;
    switch (Flush()) {
      case Flushed::kBlocked: return Interest::kWrite;
      case Flushed::kError: return Interest::kClose;
      case Flushed::kDone: break;
    }
  }
  return Interest::kRead;
}

Connection::Interest Connection::Refuse(int status, std::string message, const HttpHead& head) {
  exchange_ = factory_.Refuse(status, std::move(message), head);
  in_.clear();
  return Respond(/*close_after=*/true);
}

Connection::Interest Connection::Respond(bool close_after) {
  HttpResponse r = exchange_->Respond();
  state_ = State::kWriting;
  status_ = r.status;
  if (r.abort) return Interest::kClose;  // nothing is sent (a fault the request asked for)
  close_after_ = close_after || r.close || !keep_alive_ || factory_.Stopping() ||
                 served_ + 1 >= limits_.keep_alive_max_count;
  const bool no_body = HasNoBody(r.status);
  const uint64_t length = r.stream ? r.length : r.body.size();
  // A produced body has no length to announce: chunks end it, or (HTTP/1.0) closing.
  const bool produced = r.producer != nullptr && !r.stream && !no_body;
  if (produced && http10_) close_after_ = true;
  out_.clear();
  out_pos_ = 0;
  out_ += http10_ ? "HTTP/1.0 " : "HTTP/1.1 ";
  out_ += std::to_string(r.status);
  out_ += ' ';
  out_ += Reason(r.status);
  out_ += "\r\n";
  for (const auto& [name, value] : r.headers) {
    out_ += name;
    out_ += ": ";
    out_ += value;
    out_ += "\r\n";
  }
  if (produced) {
    if (!http10_) out_ += "Transfer-Encoding: chunked\r\n";
  } else if (!no_body) {
    out_ += "Content-Length: ";
    out_ += std::to_string(length);
    out_ += "\r\n";
  }
  if (close_after_) {
    out_ += "Connection: close\r\n";
  } else if (http10_) {
    out_ += "Connection: keep-alive\r\n";
  }
  out_ += "\r\n";
  head_bytes_ = out_.size();
  sent_ = 0;
  body_.clear();
  body_pos_ = 0;
  stream_.reset();
  stream_left_ = 0;
  producer_.reset();
  chunked_ = false;
  if (!is_head_ && !no_body) {
    if (produced) {
      producer_ = std::move(r.producer);
      chunked_ = !http10_;
      AppendPart(r.body);
    } else if (r.stream) {
      if (r.length > 0 && r.stream->Seek(r.offset).ok()) {
        stream_ = std::move(r.stream);
        stream_left_ = r.length;
      } else if (r.length > 0) {
        return Interest::kClose;  // the file cannot be read: a short response would lie
      }
    } else if (r.body.size() <= kGatherBody) {
      out_ += r.body;
    } else {
      body_ = std::move(r.body);
    }
  }
  switch (Flush()) {
    case Flushed::kBlocked: return Interest::kWrite;
    case Flushed::kError: return Interest::kClose;
    case Flushed::kDone: break;
  }
  return ResponseSent();
}

Connection::Flushed Connection::Flush() {
  while (true) {
    if (out_pos_ == out_.size() && body_pos_ == body_.size() && stream_left_ == 0) {
      if (!producer_) return Flushed::kDone;
      out_.clear();
      out_pos_ = 0;
      piece_.clear();
      auto more = producer_->Next(piece_);
      if (!more.ok()) {
        // Cut short: without the last chunk (or, HTTP/1.0, the announced close after a
        // whole body) the client cannot take what it got for a whole response.
        spdlog::warn("a response of status {} was cut short after {} bytes: {}", status_, sent_,
                     more.status().message());
        producer_.reset();
        return Flushed::kError;
      }
      AppendPart(piece_);
      if (!*more) {
        producer_.reset();
        if (chunked_) out_ += "0\r\n\r\n";
      }
      continue;
    }
    if (out_pos_ == out_.size() && body_pos_ == body_.size()) {
      out_.resize(static_cast<size_t>(std::min<uint64_t>(stream_left_, kStreamChunk)));
      auto n = stream_->Read(out_.data(), out_.size());
      if (!n.ok() || *n == 0) return Flushed::kError;  // the file shrank: the length sent was wrong
      out_.resize(*n);
      out_pos_ = 0;
      stream_left_ -= *n;
    }
    iovec iov[2];
    int count = 0;
    if (out_pos_ < out_.size()) iov[count++] = {out_.data() + out_pos_, out_.size() - out_pos_};
    if (body_pos_ < body_.size()) iov[count++] = {body_.data() + body_pos_, body_.size() - body_pos_};
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = static_cast<size_t>(count);
    const ssize_t n = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK ? Flushed::kBlocked : Flushed::kError;
    }
    size_t left = static_cast<size_t>(n);
    sent_ += left;
    if (metrics_ != nullptr) metrics_->AddBytesOut(left);
    const size_t from_out = std::min(left, out_.size() - out_pos_);
    out_pos_ += from_out;
    body_pos_ += left - from_out;
  }
}

void Connection::AppendPart(std::string_view part) {
  if (part.empty()) return;  // an empty chunk would end the body
  if (chunked_) {
    char size[20];
    const int n = std::snprintf(size, sizeof size, "%zx\r\n", part.size());
    out_.append(size, static_cast<size_t>(n));
  }
  out_ += part;
  if (chunked_) out_ += "\r\n";
}

Connection::Interest Connection::ResponseSent() {
  if (out_.capacity() > kStreamChunk) std::string().swap(out_);  // a big head or stream buffer
  if (piece_.capacity() > kStreamChunk) std::string().swap(piece_);
  producer_.reset();
  out_.clear();
  out_pos_ = 0;
  std::string().swap(body_);
  body_pos_ = 0;
  stream_.reset();
  if (exchange_) {
    exchange_->Done(MakeOutcome(true));
    exchange_.reset();
  }
  ++served_;
  if (close_after_) {
    // Half-close and read what the client still sends until it closes: closing with
    // unread input would make the kernel answer with a reset, which can destroy the
    // response before the client reads it.
    ::shutdown(fd_, SHUT_WR);
    state_ = State::kLinger;
    linger_start_ = Clock::now();
    in_.clear();
    return Interest::kRead;
  }
  state_ = State::kHead;
  if (in_.capacity() > kScratch && in_.empty()) std::string().swap(in_);
  return Interest::kRead;
}

Connection::Interest Connection::Drain() {
  char* scratch = Scratch();
  size_t total = 0;
  while (total < kReadPerEvent) {
    const ssize_t n = ::recv(fd_, scratch, kScratch, 0);
    if (n > 0) {
      if (metrics_ != nullptr) metrics_->AddBytesIn(static_cast<uint64_t>(n));
      total += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) return Interest::kClose;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? Interest::kRead : Interest::kClose;
  }
  return Interest::kRead;
}

Outcome Connection::MakeOutcome(bool complete) const {
  Outcome o;
  o.status = status_;
  o.body_bytes = sent_ > head_bytes_ ? sent_ - head_bytes_ : 0;
  o.seconds = std::chrono::duration<double>(Clock::now() - request_start_).count();
  o.complete = complete;
  return o;
}

void Connection::Abandon() {
  if (!exchange_) return;
  Outcome o = MakeOutcome(false);
  if (state_ != State::kWriting) o.status = 0;  // no response was started
  exchange_->Done(o);
  exchange_.reset();
}

void Connection::Expire() {
  if (state_ == State::kWriting) {
    Abandon();
    return;
  }
  if (idle() || state_ == State::kLinger) return;
  // A request still arriving: answer 408 if the socket takes it now, without waiting.
  const auto ms = limits_.request_timeout.count();
  const std::string message = "the request did not arrive in full within " +
                              (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms") +
                              " of its first byte";
  if (state_ == State::kBody && exchange_) {
    exchange_->OnBodyFailed(408, RuntimeError(message));
  } else {
    exchange_ = factory_.Refuse(408, message, parser_.head());
  }
  keep_alive_ = false;
  (void)Respond(/*close_after=*/true);  // one non-blocking attempt; then the caller closes
  Abandon();
}

void Connection::UpdateDeadline() {
  switch (state_) {
    case State::kHead:
      deadline_ = in_.empty() ? last_activity_ + limits_.keep_alive_timeout
                              : request_start_ + limits_.request_timeout;
      break;
    case State::kBody:
      deadline_ = request_start_ + limits_.request_timeout;
      break;
    case State::kWriting:
      deadline_ = last_activity_ + limits_.write_timeout;
      break;
    case State::kLinger:
      // While the client keeps sending (a body the response refused), up to the request
      // timeout; once it pauses, soon.
      deadline_ = std::min(linger_start_ + limits_.request_timeout, last_activity_ + limits_.linger_timeout);
      break;
  }
}

}  // namespace folio::http
