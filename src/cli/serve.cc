// folio serve: serves a data directory over HTTP (docs/API.md §2). Options, the ready
// line, --ephemeral copies, and a clean stop on SIGINT/SIGTERM.
#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "api/auth/credentials.h"
#include "api/dispatch.h"
#include "api/fixture/data_states.h"
#include "api/fixture/event_hub.h"
#include "api/web_policy.h"
#include "cli/commands.h"
#include "cli/data_dir.h"
#include "cli/ephemeral_copy.h"
#include "cli/exit_with_parent.h"
#include "cli/malloc_tuning.h"
#include "cli/serving_lock.h"
#include "folio/fs.h"
#include "folio/store.h"
#include "http/listener.h"
#include "log/log_output.h"
#include "http/server.h"
#include "storage/id_seed.h"
#include "storage/fs_probe.h"

namespace folio::cli {
namespace {

struct ServeOptions {
  std::string data = "./data";
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string variant = "B";
  bool ephemeral = false;
  bool exit_with_parent = false;
  bool read_only = false;
  bool strict = false;
  uint64_t max_body = 256ull * 1024 * 1024;
  size_t threads = 0;
  size_t response_cache = 2048;
  bool versions_newest_first = false;
  uint64_t change_log_max = 100000;
  std::vector<std::string> allowed_hosts;
  std::vector<std::string> cors_origins;
  std::string log_level = "info";
  bool insecure = false;
  std::string log_format = "text";
  std::string snapshot_dir;                   // "" : DATA.snapshots
  bool keep_start_state = false;              // copy DIR at start, for POST /-/reset
  bool faults = false;                        // accept Folio-Fault
  std::optional<uint64_t> deterministic_ids;  // the seed
};

// A data directory to serve: an existing one, or a new or empty directory (not for
// --ephemeral, which copies one). Anything else is a mistake to name, not to fill with
// an empty store.
Status CheckDataDirectory(const ServeOptions& o) {
  const DirKind kind = ClassifyDirectory(o.data);
  if (kind == DirKind::kDataDirectory || kind == DirKind::kEmpty) return OkStatus();
  if (kind == DirKind::kMissing) {
    if (!o.ephemeral) return OkStatus();  // created by Store::Open
    return ObjectNotFound("--ephemeral serves a copy of --data '" + o.data +
                          "', which does not exist (without --ephemeral, a new data directory is created there)");
  }
  return InvalidArgument(NotADataDirectory(o.data, kind, HintFor::kServe));
}

// What a start made of a data directory that was missing or empty before it, removed
// if the start fails before it serves (Rule S1, docs/STORAGE.md §10: a failed start
// creates nothing, docs/API.md §2).
class NewDataDirectory {
 public:
  NewDataDirectory(DirKind before, std::string dir) : before_(before), dir_(std::move(dir)) {}
  ~NewDataDirectory() {
    if (kept_) return;
    std::error_code ignored;
    if (before_ == DirKind::kMissing) std::filesystem::remove_all(dir_, ignored);
    if (before_ == DirKind::kEmpty) {
      for (const auto& e : std::filesystem::directory_iterator(dir_, ignored)) std::filesystem::remove_all(e, ignored);
    }
  }
  NewDataDirectory(const NewDataDirectory&) = delete;
  NewDataDirectory& operator=(const NewDataDirectory&) = delete;
  // The start succeeded: what it made stays.
  void Keep() { kept_ = true; }

 private:
  const DirKind before_;
  const std::string dir_;
  bool kept_ = false;
};

// Removes the --ephemeral copies in $TMPDIR that killed servers left, and says so.
void RemoveAbandonedCopies() {
  for (const std::string& removed : RemoveAbandonedEphemeralCopies()) {
    spdlog::info("removed {}: an --ephemeral copy left by a process that no longer runs", removed);
  }
}

int RunServe(const ServeOptions& o) {
  const auto level = spdlog::level::from_str(o.log_level);
  if (level == spdlog::level::off && o.log_level != "off") {
    std::cerr << "folio serve: --log-level must be trace, debug, info, warn, error, critical or off\n";
    return 2;
  }
  const std::optional<logging::LogFormat> format = logging::ParseLogFormat(o.log_format);
  if (!format) {
    std::cerr << "folio serve: --log-format must be text or json\n";
    return 2;
  }
  if (Status s = api::WebPolicy::Validate({o.allowed_hosts, o.cors_origins, o.host}); !s.ok()) {
    std::cerr << "folio serve: " << s.message() << "\n";
    return 2;
  }
  TuneMalloc();  // before any thread allocates
  // Block the stop signals in every thread (so before any is made, the log's flusher the
  // first); one thread waits for them (sigwait).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // Buffered: the request path never waits on a write to stderr. Destroyed last, it
  // writes whatever is left.
  logging::LogOutput log_output(STDERR_FILENO, *format);
  log_output.Install(level);
  ::signal(SIGPIPE, SIG_IGN);  // a client that goes away is an error on its socket, not a signal

  if (o.exit_with_parent) {
    if (Status s = ExitWithParent(SIGTERM); !s.ok()) {
      std::cerr << "folio serve: --exit-with-parent: " << s.message() << "\n";
      return 1;
    }
  }
  if (Status s = CheckDataDirectory(o); !s.ok()) {
    std::cerr << "folio serve: " << s.message() << "\n";
    return 1;
  }
  // The port first: a start that cannot listen has touched nothing yet.
  auto listener = http::Listener::Open(o.host, o.port);
  if (!listener.ok()) {
    std::cerr << "folio serve: " << listener.status().message() << "\n";
    if (o.port != 0) {
      std::cerr << "folio serve: if another program uses port " << o.port
                << ", stop it or choose another port: --port N (--port 0 picks a free one)\n";
    }
    return 1;
  }
  // A start that fails later removes the data directory it made (or filled).
  NewDataDirectory made(o.ephemeral ? DirKind::kDataDirectory : ClassifyDirectory(o.data), o.data);
  std::unique_ptr<EphemeralCopy> copy;
  std::string dir = o.data;
  if (o.ephemeral) {
    RemoveAbandonedCopies();  // before the copy: the room they take may be needed for it
    auto made = EphemeralCopy::Make(o.data);
    if (!made.ok()) {
      std::cerr << "folio serve: " << made.status().ToString() << "\n";
      return 1;
    }
    copy = std::move(*made);
    dir = copy->data_dir();
  }
  if (o.deterministic_ids) storage::SetIdSeed(*o.deterministic_ids);
  // The live events of GET /-/events (docs/API.md §14.3): every change is told to it.
  auto events = std::make_shared<api::fixture::EventHub>();
  StoreOptions store_options;
  store_options.read_only = o.read_only;
  store_options.durable = !o.ephemeral;
  store_options.change_log_max_events = o.change_log_max;
  store_options.on_changes = events->Listener();
  auto store = Store::Open(dir, store_options);
  if (!store.ok()) {
    std::cerr << "folio serve: cannot open data directory '" << o.data << "': " << store.status().ToString() << "\n";
    return 1;
  }
  if (std::string line = storage::ProbedChoices(dir); !line.empty()) spdlog::info("{}", line);
  // Marks the directory as served for as long as this process lives, so that folio
  // import and export can tell (the write lock is only held while a change is written).
  auto mark = ServingMark::Hold(dir, o.read_only);
  if (!mark.ok()) {
    // A read-only server may be given a directory it cannot write at all: serve anyway.
    if (!o.read_only) {
      std::cerr << "folio serve: " << mark.status().message() << "\n";
      return 1;
    }
    spdlog::warn("{}: folio import and export cannot tell that this server reads it", mark.status().message());
  }
  // Reads never write (docs/STORAGE.md §12): a server that may not write the data
  // directory keeps its derived indexes in a scratch directory of its own, removed at
  // exit (or, after a kill, at the next start, as an --ephemeral copy is).
  std::unique_ptr<EphemeralCopy> scratch;
  if (o.read_only || ::access(dir.c_str(), W_OK) != 0) {
    auto made = EphemeralCopy::Make("");
    if (!made.ok()) {
      std::cerr << "folio serve: " << made.status().ToString() << "\n";
      return 1;
    }
    scratch = std::move(*made);
  }
  api::ServiceOptions service_options;
  service_options.fixture.events = events;
  service_options.fixture.faults = o.faults;
  service_options.fixture.reopen = store_options;
  service_options.fixture.reopen.create = false;
  if (!o.read_only) {
    // The start state POST /-/reset returns to: an --ephemeral server's source (never
    // written), else a copy made now when asked (--keep-start-state): a copy of a large
    // data directory takes seconds, and a server starts at once (docs/API.md §14.1).
    const auto started = std::chrono::steady_clock::now();
    auto states = api::fixture::DataStates::Open({dir, o.ephemeral ? o.data : std::string(), o.snapshot_dir,
                                                  /*durable=*/!o.ephemeral,
                                                  /*keep_start=*/o.ephemeral || o.keep_start_state});
    if (!states.ok()) {
      // Serving goes on: only /-/reset and the snapshots are refused (notSupported).
      spdlog::warn("cannot keep the start state for /-/reset and snapshots: {}", states.status().message());
    } else {
      if (!o.ephemeral && o.keep_start_state) {
        spdlog::info("kept the start state for /-/reset in {} ({} ms)", (*states)->snapshot_dir(),
                     std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
                         .count());
      }
      service_options.fixture.states = std::move(*states);
    }
    service_options.fixture.after_swap = [&mark, dir, read_only = o.read_only] {
      // The mark is on the replaced directory's file: hold the new one's.
      mark = ServingMark::Hold(dir, read_only);
      if (!mark.ok()) spdlog::warn("{}", mark.status().message());
    };
  }
  if (scratch) service_options.scratch_dir = scratch->data_dir();
  service_options.default_variant = o.variant;
  service_options.read_only = o.read_only;
  service_options.strict = o.strict;
  service_options.versions_newest_first = o.versions_newest_first;
  // The server administrator's password comes from the environment only (never from
  // the command line, where `ps` would show it).
  if (const char* admin = std::getenv("FOLIO_ADMIN_PASSWORD"); admin != nullptr && *admin != '\0') {
    service_options.admin_password = admin;
  }
  service_options.exposed = !api::auth::IsLoopbackAddress(o.host);
  service_options.insecure = o.insecure;
  service_options.log = [](const std::string& line) { spdlog::info("{}", line); };
  api::Service service(**store, service_options);
  // Beyond loopback, a domain without users would be open to anyone who can connect.
  if (service_options.exposed && !o.insecure) {
    auto open = service.AnonymousDomains();
    if (!open.ok()) {
      std::cerr << "folio serve: cannot read the domains' users: " << open.status().ToString() << "\n";
      return 1;
    }
    if (!open->empty()) {
      std::string names;
      for (const std::string& d : *open) names += (names.empty() ? "" : ", ") + d;
      std::cerr << "folio serve: refusing to listen on " << o.host << ": these domains have no users and allow "
                << "anonymous access: " << names << ". Create a user in each (createUser), or serve on 127.0.0.1, "
                << "or pass --insecure.\n";
      return 2;
    }
  }
  http::ServerOptions server_options;
  server_options.host = o.host;
  server_options.port = o.port;
  server_options.threads = o.threads;
  server_options.response_cache_entries = o.response_cache;
  server_options.max_body = o.max_body;
  server_options.web.allowed_hosts = o.allowed_hosts;
  server_options.web.cors_origins = o.cors_origins;
  server_options.log_format = *format;
  http::Server server(service, server_options);
  if (Status s = server.Bind(std::move(*listener)); !s.ok()) {
    std::cerr << "folio serve: " << s.message() << "\n";
    return 1;
  }
  std::cout << "folio listening on " << server.Url() << std::endl;  // the ready line, flushed
  if (o.ephemeral) {
    spdlog::info("serving an ephemeral copy of {} in {} (removed at exit; default variant {}{}{})", o.data, dir,
                 o.variant, o.read_only ? ", read-only" : "", o.strict ? ", strict" : "");
  } else {
    spdlog::info("serving {} (default variant {}{}{})", o.data, o.variant, o.read_only ? ", read-only" : "",
                 o.strict ? ", strict" : "");
  }
  service.StartQueryIndexing();  // after the ready line: it never waits for an index
  if (Status s = server.Start(); !s.ok()) {
    std::cerr << "folio serve: " << s.message() << "\n";
    return 1;
  }
  made.Keep();
  // Serving already: the ready line waits neither for a scan of all of $TMPDIR nor for the
  // removal of a large copy (a stop signal meanwhile waits for the sweep's end).
  if (!o.ephemeral) RemoveAbandonedCopies();

  std::thread waiter([&server, &signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    spdlog::info("stopping: finishing requests in flight");
    server.Stop();
  });
  const Status served = server.Serve();
  pthread_kill(waiter.native_handle(), SIGTERM);  // wakes the waiter if the server stopped by itself
  waiter.join();
  if (!served.ok()) {
    std::cerr << "folio serve: " << served.message() << "\n";
    return 1;
  }
  spdlog::info("stopped");
  return 0;
}

}  // namespace

void RegisterServe(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Serve a data directory over HTTP (CMIS Browser Binding)");
  cmd->add_option("--data", opts->data, "data directory (created if missing)")->capture_default_str();
  cmd->add_option("--host", opts->host, "address to bind")->capture_default_str();
  cmd->add_option("--port", opts->port, "port; 0 picks a free one")->capture_default_str()->check(CLI::Range(0, 65535));
  cmd->add_option("--variant", opts->variant, "variant for repositories created without one")
      ->capture_default_str()
      ->transform(CLI::IsMember({"A", "B"}, CLI::ignore_case));
  cmd->add_flag("--ephemeral", opts->ephemeral,
                "serve a temporary copy of the data directory, removed at exit (or, after a kill, at the next start)");
  cmd->add_flag("--exit-with-parent", opts->exit_with_parent,
                "stop (as on SIGTERM) when the process that started folio exits (Linux): for test fixtures");
  cmd->add_flag("--read-only", opts->read_only, "refuse every write with permissionDenied");
  cmd->add_flag("--strict", opts->strict, "reject what the published variant does not accept");
  cmd->add_option("--max-body", opts->max_body, "largest accepted request body, in bytes")->capture_default_str();
  cmd->add_option("--threads", opts->threads, "worker threads (default: number of cores)");
  cmd->add_option("--response-cache", opts->response_cache,
                  "getObject answers kept for reuse, each checked before reuse (0: none)")
      ->capture_default_str();
  cmd->add_flag("--versions-newest-first", opts->versions_newest_first, "getAllVersions in CMIS order");
  cmd->add_option("--change-log-max", opts->change_log_max,
                  "change-log events kept per repository; older ones are dropped (changesIncomplete)")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  cmd->add_option("--allowed-host", opts->allowed_hosts,
                  "a name clients may address this server by besides localhost and its addresses (repeatable; "
                  "host, host:port or *.domain; * accepts any)")
      ->delimiter(',');
  cmd->add_option("--cors-origin", opts->cors_origins,
                  "a web page origin allowed to use this server besides loopback pages (repeatable; "
                  "scheme://host[:port]; * allows every origin)")
      ->delimiter(',');
  cmd->add_option("--log-level", opts->log_level, "trace, debug, info, warn, error, critical or off")
      ->capture_default_str();
  cmd->add_option("--log-format", opts->log_format, "text, or json (one JSON object per line)")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--snapshot-dir", opts->snapshot_dir,
                  "where POST /-/snapshots keeps snapshots (default: the data directory's path + .snapshots)");
  cmd->add_flag("--keep-start-state", opts->keep_start_state,
                "copy the data directory when the server starts, so that POST /-/reset can return to it "
                "(an --ephemeral server returns to its source without a copy)");
  cmd->add_flag("--faults", opts->faults, "let requests ask for their own failure with the Folio-Fault header");
  cmd->add_option("--deterministic-ids", opts->deterministic_ids,
                  "object ids follow from this seed and the order of operations (fixtures built by a script)");
  cmd->add_flag("--insecure", opts->insecure,
                "allow domains without users (anonymous access) on an address other than loopback");
  cmd->footer(
      "Environment:\n"
      "  FOLIO_ADMIN_PASSWORD  password of the server administrator 'admin' (server-level operations: domains);\n"
      "                        unset: those are allowed from loopback clients only.\n"
      "Exit codes: 0 stopped cleanly; 1 cannot open the data directory or listen; 2 bad usage, or a domain\n"
      "allows anonymous access while listening beyond loopback without --insecure.\n");
  cmd->callback([opts, &exit_code] { exit_code = RunServe(*opts); });
}

}  // namespace folio::cli
