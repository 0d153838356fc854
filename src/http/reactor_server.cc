// cpp-httplib served by the reactor; see reactor_server.h.
#include "http/reactor_server.h"

#include <sys/socket.h>

#include <algorithm>

namespace folio::http {
namespace {

// httplib's task queue now only runs the hand-over to the reactor, which is quick, so
// it runs inline on the accept thread. shutdown() is called once the accept loop has
// ended: the moment to stop the reactor.
class InlineQueue final : public httplib::TaskQueue {
 public:
  explicit InlineQueue(std::function<void()> on_shutdown) : on_shutdown_(std::move(on_shutdown)) {}
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override { on_shutdown_(); }

 private:
  std::function<void()> on_shutdown_;
};

}  // namespace

ReactorServer::ReactorServer(const ReactorOptions& options)
    : reactor_(options, [this](ConnectionStream& stream, bool close_connection, bool& connection_closed) {
        return process_request(stream, close_connection, connection_closed, nullptr);
      }) {
  new_task_queue = [this] { return new InlineQueue([this] { Drain(); }); };
  set_keep_alive_max_count(options.keep_alive_max_count);
  // The header announces whole seconds; the reactor closes at the exact timeout.
  set_keep_alive_timeout(std::max<time_t>(1, (options.keep_alive_timeout.count() + 999) / 1000));
  set_read_timeout(options.read_timeout);
  set_write_timeout(options.write_timeout);
}

// httplib's stop() sets svr_sock_ to INVALID_SOCKET at once, and its content providers
// take that for "shutting down" and abandon a response mid-body. Shutting the listening
// socket down instead makes accept() fail, which ends the loop just the same (httplib
// closes the socket then); svr_sock_ becomes INVALID_SOCKET only after the drain.
// Only once: after the loop has closed the socket, its number may be another fd's.
void ReactorServer::Stop() {
  if (!is_running() || stop_sent_.exchange(true)) return;
  const socket_t sock = svr_sock_;
  if (sock != INVALID_SOCKET) ::shutdown(sock, SHUT_RDWR);
}

void ReactorServer::Drain() {
  reactor_.Stop();
  svr_sock_ = INVALID_SOCKET;
}

bool ReactorServer::process_and_close_socket(socket_t sock) {
  reactor_.Add(sock);
  return true;
}

}  // namespace folio::http
