// One client connection speaking HTTP/1.1: gathers the bytes of each request from a
// non-blocking socket as they arrive, hands a complete request to its Exchange, and sends
// the response as the socket takes it. A thread runs it only when epoll says the socket
// is ready (reactor.h), and only for as long as there is something to do: a client that
// sends slowly, or reads slowly, never holds a thread while it waits. Requests are
// pipelined, kept alive, and bounded: the head by HeadLimits, the time from a request's
// first byte to its last by `request_timeout`.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "http/body_framer.h"
#include "http/exchange.h"
#include "http/head_parser.h"

namespace folio::http {

class HttpMetrics;

struct ConnectionLimits {
  HeadLimits head;
  // An idle connection (between requests) is closed after this long.
  std::chrono::milliseconds keep_alive_timeout{3000};
  // A request's head and body must arrive within this long of its first byte.
  std::chrono::milliseconds request_timeout{30000};
  // A response that makes no progress (the client does not read) for this long is dropped.
  std::chrono::milliseconds write_timeout{30000};
  // After a response that closes the connection, input is read and dropped until the
  // client pauses this long (or for `request_timeout` at most), so that the client sees
  // the response rather than a reset.
  std::chrono::milliseconds linger_timeout{2000};
  size_t keep_alive_max_count = 10000;  // requests per connection
};

class Connection {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Interest { kRead, kWrite, kClose };

  // Takes ownership of the connected, non-blocking socket `fd` (closed by the destructor).
  // `factory`, `limits` and `metrics` (may be null) must outlive it.
  Connection(int fd, ExchangeFactory& factory, const ConnectionLimits& limits, HttpMetrics* metrics);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Does what the socket allows (read, handle complete requests, write) and returns what
  // to wait for next. Requires: called by one thread at a time (the one epoll woke).
  Interest OnEvent();

  // When the state it waits in expires (keep-alive, request, write or linger timeout).
  Clock::time_point deadline() const { return deadline_; }
  // Between requests with nothing read, or lingering after its last response: it may be
  // closed at once when the server stops.
  bool idle() const;
  // Closing after its last response (idle() too).
  bool lingering() const { return state_ == State::kLinger; }
  // The deadline has passed: a request that is still arriving is answered 408 (best
  // effort, without waiting) and logged; a stalled response is logged as incomplete.
  // The caller then destroys the connection. Requires: no thread runs OnEvent.
  void Expire();

  int fd() const { return fd_; }

 private:
  enum class State { kHead, kBody, kWriting, kLinger };
  enum class Flushed { kDone, kBlocked, kError };

  Interest Run();
  Interest ReadLoop();
  // Processes `data` (and what is buffered before it) in the current state.
  Interest Consume(std::string_view data);
  Interest BeginRequest(HttpHead head);
  Interest Refuse(int status, std::string message, const HttpHead& head);
  // Asks the exchange for its response and starts sending it.
  Interest Respond(bool close_after);
  Flushed Flush();
  // The response has been sent: finishes the exchange; then the next request or linger.
  Interest ResponseSent();
  Interest Drain();
  void Abandon();  // the exchange in progress ends without a (complete) response
  void UpdateDeadline();
  Outcome MakeOutcome(bool complete) const;

  const int fd_;
  ExchangeFactory& factory_;
  const ConnectionLimits& limits_;
  HttpMetrics* metrics_;

  State state_ = State::kHead;
  std::string in_;  // bytes received and not yet consumed (a head being gathered, pipelined input)
  HeadParser parser_;
  BodyFramer framer_ = BodyFramer::Length(0);
  std::unique_ptr<Exchange> exchange_;
  Clock::time_point request_start_{};
  bool keep_alive_ = true;  // the client allows another request after this one
  bool is_head_ = false;    // a HEAD request: the response has no body
  bool http10_ = false;
  size_t served_ = 0;

  // Appends `part` of a produced body to out_, as a chunk when chunked_.
  void AppendPart(std::string_view part);

  // The response being sent: out_ (its head, small bodies, stream chunks), then body_.
  std::string out_;
  size_t out_pos_ = 0;
  std::string body_;
  size_t body_pos_ = 0;
  std::unique_ptr<ReadableFile> stream_;
  uint64_t stream_left_ = 0;
  // A body made as it is sent (HttpResponse::producer): each part goes to out_, framed
  // as a chunk when chunked_ (HTTP/1.1); piece_ is the producer's buffer.
  std::unique_ptr<api::BodyProducer> producer_;
  bool chunked_ = false;
  std::string piece_;
  bool close_after_ = false;
  int status_ = 0;
  uint64_t head_bytes_ = 0;   // of the response head (the rest sent is body)
  uint64_t sent_ = 0;         // bytes of the response sent so far

  Clock::time_point last_activity_;
  Clock::time_point linger_start_{};
  Clock::time_point deadline_{};
};

}  // namespace folio::http
