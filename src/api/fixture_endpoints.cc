// The test-fixture endpoints of the service (docs/API.md §14): /-/reset, /-/snapshots,
// /-/events, and requests that carry Folio-Fault. Part of api::Service (dispatch.h).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <thread>

#include "api/auth/authenticator.h"
#include "api/dispatch.h"
#include "api/error_response.h"
#include "api/fixture/data_states.h"
#include "api/fixture/event_hub.h"
#include "api/fixture/fault.h"
#include "api/json_writer.h"
#include "api/ops/ops.h"
#include "api/params.h"
#include "repo/acl/accounts.h"
#include "repo/query/query_indexes.h"
#include "storage/datetime.h"
#include "storage/id_seed.h"
#include "storage/wait_hooks.h"

namespace folio::api {
namespace {

Response Json200(std::string body) { return ops::JsonTextResponse(200, std::move(body)); }

// The error a Folio-Fault status asks for, with the exception that status answers.
Response FaultStatusResponse(int status) {
  ErrorKind kind = status >= 500 ? ErrorKind::kRuntime : ErrorKind::kInvalidArgument;
  for (ErrorKind k : {ErrorKind::kUnauthorized, ErrorKind::kPermissionDenied, ErrorKind::kObjectNotFound,
                      ErrorKind::kNotSupported, ErrorKind::kUpdateConflict}) {
    if (HttpStatusFor(k) == status) kind = k;
  }
  Response r = MakeErrorResponse(
      Status(kind, "fault injected by the request's Folio-Fault header: status=" + std::to_string(status)));
  r.status = status;
  return r;
}

// A response body cut after `limit` bytes: what a failing network delivers. Next fails
// there, so that the server closes the connection without ending the body.
class TruncatedBody final : public BodyProducer {
 public:
  TruncatedBody(Response inner, uint64_t limit) : inner_(std::move(inner)), left_(limit) {}

  Result<bool> Next(std::string& out) override {
    if (cut_) return RuntimeError("the body was cut as the request's Folio-Fault header asked (truncate)");
    for (;;) {
      std::string piece;
      bool ended = false;
      if (!body_sent_) {
        body_sent_ = true;
        piece = std::move(inner_.body);
      } else if (stream_left_ > 0) {
        piece.resize(static_cast<size_t>(std::min<uint64_t>(stream_left_, 64 * 1024)));
        FOLIO_ASSIGN_OR_RETURN(size_t n, inner_.stream->Read(piece.data(), piece.size()));
        if (n == 0) return RuntimeError("the content stream ended early");
        piece.resize(n);
        stream_left_ -= n;
      } else if (inner_.producer && !producer_done_) {
        FOLIO_ASSIGN_OR_RETURN(bool more, inner_.producer->Next(piece));
        producer_done_ = !more;
      } else {
        ended = true;  // the whole body was shorter than the limit: it stops here all the same
      }
      if (piece.size() >= left_ || ended) {
        out.append(piece, 0, static_cast<size_t>(std::min<uint64_t>(left_, piece.size())));
        cut_ = true;  // sent with this part; the next call ends the response short
        return true;
      }
      left_ -= piece.size();
      out += piece;
      if (!out.empty()) return true;
    }
  }

  Status Start() {
    if (inner_.stream) {
      FOLIO_RETURN_IF_ERROR(inner_.stream->Seek(inner_.offset));
      stream_left_ = inner_.length;
    }
    return OkStatus();
  }

 private:
  Response inner_;
  uint64_t left_;
  uint64_t stream_left_ = 0;
  bool body_sent_ = false;
  bool producer_done_ = false;
  bool cut_ = false;
};

}  // namespace

void Service::Stopping() {
  if (options_.fixture.events) options_.fixture.events->Close();
}

Response Service::RunWithFault(const Request& request) {
  if (!options_.fixture.faults) {
    return MakeErrorResponse(InvalidArgument(
        "header 'Folio-Fault' is refused: this server injects no faults (start it with --faults)"));
  }
  auto fault = fixture::ParseFault(request.fault);
  if (!fault.ok()) return MakeErrorResponse(fault.status());
  if (fault->status) return FaultStatusResponse(*fault->status);  // nothing runs
  if (fault->delay) {
    storage::ScopedWait wait;  // the server lets another worker serve meanwhile
    std::this_thread::sleep_for(*fault->delay);
  }
  Response response;
  {
    std::shared_lock<fixture::StateLock> state(state_mu_);
    response = RunHoldingStore(request);
  }
  response.still_valid = nullptr;  // never reused: the next request may not ask for a fault
  if (fault->reset) {
    response.drop_connection = true;
  } else if (fault->truncate) {
    Response cut;
    cut.status = response.status;
    cut.content_type = response.content_type;
    cut.headers = response.headers;
    cut.operation = response.operation;
    cut.exception = response.exception;
    cut.message = response.message;
    auto body = std::make_unique<TruncatedBody>(std::move(response), *fault->truncate);
    if (Status s = body->Start(); !s.ok()) return MakeErrorResponse(s);
    cut.producer = std::move(body);
    response = std::move(cut);
  }
  return response;
}

namespace {

// Events a stream resumed after `base`/`token` missed: `missed` (what the hub
// published since), read from the change logs of `store`, in the order published; a
// repository's events that the hub was not told of (written by another process, or
// not yet published) come after the event before them in its log. Without a reset
// since, the events of `base` after `token` are all sent. Errors: kObjectNotFound when
// `base` is no repository (and no reset came since); kConstraint past 100,000 events;
// kStorage when a change log cannot be read.
Result<std::vector<fixture::EventFrame>> MissedFrames(Store& store, const std::string& base, uint64_t token,
                                                      const fixture::EventHub::Missed& missed) {
  constexpr size_t kMaxBacklog = 100000;
  // Where each repository's log is read from, in the order the repositories come.
  std::vector<std::pair<std::string, uint64_t>> from;
  auto note = [&](const std::string& b, uint64_t t) {
    for (auto& [name, first] : from) {
      if (name == b) {
        first = std::min(first, t);
        return;
      }
    }
    from.emplace_back(b, t);
  };
  if (missed.replaced.empty()) note(base, token + 1);
  for (const auto& [b, t] : missed.events) note(b, t);
  std::map<std::string, std::deque<fixture::EventFrame>> logged;  // per repository, in log order
  size_t total = 0;
  for (const auto& [b, first] : from) {
    const size_t slash = b.find('/');
    auto repo = store.GetRepository(b.substr(0, slash), b.substr(slash + 1));
    if (!repo.ok()) {
      if (b == base && missed.replaced.empty()) return repo.status();
      continue;  // removed since: its events went with it
    }
    std::deque<fixture::EventFrame>& frames = logged[b];
    for (uint64_t next = first;;) {
      FOLIO_ASSIGN_OR_RETURN(ChangeLogPage page, (*repo)->ReadChanges(next, 1000));
      for (const ChangeEventInfo& e : page.events) {
        frames.push_back(fixture::MakeEventFrame(b, (*repo)->info().variant, e));
      }
      total += page.events.size();
      if (total > kMaxBacklog) {
        return Constraint("Last-Event-ID '" + base + "/" + std::to_string(token) + "' is more than 100,000 events "
                          "behind: read the change logs with getContentChanges instead");
      }
      if (!page.has_more || page.events.empty()) break;
      next = page.events.back().token + 1;
    }
  }
  std::vector<fixture::EventFrame> backlog;
  if (!missed.replaced.empty()) backlog.push_back(fixture::EventFrame{"", 0, missed.replaced});
  auto send_until = [&](std::deque<fixture::EventFrame>& frames, uint64_t last) {
    while (!frames.empty() && frames.front().token <= last) {
      backlog.push_back(std::move(frames.front()));
      frames.pop_front();
    }
  };
  for (const auto& [b, t] : missed.events) send_until(logged[b], t);
  for (const auto& [b, first] : from) send_until(logged[b], UINT64_MAX);
  return backlog;
}

Status NoStates() {
  return NotSupported("this server keeps no start state or snapshots (it is read-only, or was made without them)");
}

}  // namespace

Status Service::Reset() {
  if (!options_.fixture.states) return NoStates();
  return SwitchState("");
}

Status Service::RestoreSnapshot(const std::string& name) {
  if (!options_.fixture.states) return NoStates();
  FOLIO_RETURN_IF_ERROR(fixture::DataStates::CheckName(name));
  return SwitchState(name);
}

Status Service::TakeSnapshot(const std::string& name) {
  if (!options_.fixture.states) return NoStates();
  FOLIO_RETURN_IF_ERROR(fixture::DataStates::CheckName(name));
  std::unique_lock<fixture::StateLock> state(state_mu_);  // no write is half in it
  // What writes files without a request: the query indexes (SQLite databases, built
  // and brought in step in the background) stop and close their files, so that the copy
  // holds each whole. The repositories' idle checkpoints go on: they only make what is
  // applied durable and remove garbage (trash, spare files), which the copy may leave
  // out (storage::CopyTree).
  query_indexes_.reset();
  Status s = options_.fixture.states->Snapshot(name);
  MakeQueryIndexes();
  return s;
}

Result<uint64_t> Service::LatestChangeToken(const std::string& domain_id, const std::string& repository_id) {
  std::shared_lock<fixture::StateLock> state(state_mu_);
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<Repository> repo, store_->GetRepository(domain_id, repository_id));
  return repo->LatestChangeToken();
}

Status Service::SwitchState(const std::string& snapshot) {
  fixture::DataStates& states = *options_.fixture.states;
  // The copy is made while requests go on: it reads only the state switched to.
  FOLIO_ASSIGN_OR_RETURN(std::string staged, states.Stage(snapshot));
  Status result = OkStatus();
  {
    std::unique_lock<fixture::StateLock> state(state_mu_);  // requests in flight finish first
    query_indexes_.reset();
    accounts_.reset();
    store_->CloseRepositories();
    result = states.SwapIn(staged);
    if (result.ok()) {
      auto reopened = Store::Open(states.data_dir(), options_.fixture.reopen);
      if (reopened.ok()) {
        // The Store before goes when the last body still reading it is sent
        // (RunHoldingStore).
        owned_store_ = std::shared_ptr<Store>(std::move(*reopened));
        store_ = owned_store_.get();
        generation_->fetch_add(1);
        storage::RestartSeededIds();  // a script run again on the state gets the same ids
      } else {
        result = StorageError("the data directory was replaced but cannot be opened: " + reopened.status().message());
      }
    }
    BuildOnStore();
    if (result.ok()) {
      if (options_.fixture.after_swap) options_.fixture.after_swap();
      if (options_.fixture.events) {
        options_.fixture.events->Replaced(
            std::string("event: ") + (snapshot.empty() ? "reset" : "restored") + "\ndata: {\"snapshot\":\"" + snapshot +
            "\"}\n\n");
      }
    }
  }
  states.Discard(staged);  // the old state, or the copy not swapped in
  return result;
}

Response Service::HandleFixture(const Request& request) {
  const std::vector<std::string>& path = request.path;
  const std::string shown = "/-/" + (path.size() > 1 ? path[1] : "");
  auto fail = [&](const Status& s, std::string_view operation) {
    Response r = MakeErrorResponse(s);
    r.operation = std::string(operation);
    return r;
  };
  const bool reset = path.size() == 2 && path[1] == "reset";
  const bool events = path.size() == 2 && path[1] == "events";
  const bool snapshots = path.size() >= 2 && path.size() <= 4 && path[1] == "snapshots" &&
                         (path.size() != 4 || path[3] == "restore");
  if (!reset && !events && !snapshots) {
    return fail(ObjectNotFound("no operations endpoint '/-/" + (path.size() > 1 ? path[1].substr(0, 100) : "") + "'"),
                "");
  }
  const std::string operation = reset ? "reset" : events ? "events" : path.size() == 4 ? "restoreSnapshot"
                                : path.size() == 3 ? "deleteSnapshot" : request.method == "POST" ? "createSnapshot"
                                                                                                  : "getSnapshots";
  // The server administrator only (docs/API.md §11.2), before anything else is said.
  auto admin = authenticator_->ServerAdmin({request.authorization, request.api_key, request.peer_loopback,
                                            request.peer_address});
  if (!admin.ok()) return fail(admin.status(), operation);
  if (!request.fault.empty() && !options_.fixture.faults) return RunWithFault(request);  // refused the same way
  const std::string& method = request.method;
  auto wrong_method = [&](std::string_view allowed) {
    return fail(NotSupported(shown + (path.size() > 2 ? "/..." : "") + " answers " + std::string(allowed) + " only"),
                operation);
  };
  if ((reset || snapshots) && !options_.fixture.states) return fail(NoStates(), operation);
  if (reset) {
    if (method != "POST") return wrong_method("POST");
    if (Status s = Reset(); !s.ok()) return fail(s, operation);
    Response r = Json200(R"({"reset":true})");
    r.operation = operation;
    return r;
  }
  if (snapshots) {
    fixture::DataStates& states = *options_.fixture.states;
    Response r;
    if (path.size() == 2 && method == "GET") {
      auto list = states.List();
      if (!list.ok()) return fail(list.status(), operation);
      std::string body;
      JsonWriter w(body);
      w.BeginObject().Key("snapshots").BeginArray();
      for (const fixture::SnapshotInfo& s : *list) {
        w.BeginObject();
        w.Key("name").String(s.name);
        w.Key("time").String(storage::FormatIsoMs(s.time_ms));
        w.Key("size").Int(static_cast<int64_t>(s.bytes));
        w.EndObject();
      }
      w.EndArray().EndObject();
      r = Json200(std::move(body));
    } else if (path.size() == 2 && method == "POST") {
      auto params = Params::FromRequest(request);
      if (!params.ok()) return fail(params.status(), operation);
      auto name = params->RequireString("name");
      if (!name.ok()) return fail(name.status(), operation);
      if (Status s = TakeSnapshot(*name); !s.ok()) return fail(s, operation);
      std::string body;
      JsonWriter w(body);
      w.BeginObject().Key("snapshot").String(*name).EndObject();
      r = ops::JsonTextResponse(201, std::move(body));
    } else if (path.size() == 3 && method == "DELETE") {
      if (Status s = states.Delete(path[2]); !s.ok()) return fail(s, operation);
      r = Json200(R"({"deleted":true})");
    } else if (path.size() == 4 && method == "POST") {
      if (Status s = RestoreSnapshot(path[2]); !s.ok()) return fail(s, operation);
      std::string body;
      JsonWriter w(body);
      w.BeginObject().Key("restored").String(path[2]).EndObject();
      r = Json200(std::move(body));
    } else {
      return wrong_method(path.size() == 2 ? "GET and POST" : path.size() == 3 ? "DELETE" : "POST");
    }
    r.operation = operation;
    return r;
  }
  // GET /-/events
  if (method != "GET") return wrong_method("GET");
  if (!options_.fixture.events) return fail(NotSupported("this server has no live events"), operation);
  fixture::EventHub& hub = *options_.fixture.events;
  std::shared_ptr<fixture::EventHub::Subscriber> subscriber = hub.Subscribe();
  if (!subscriber) {
    return fail(hub.subscribers() >= fixture::kMaxSubscribers
                    ? Constraint("too many event streams are open (" + std::to_string(fixture::kMaxSubscribers) +
                                 "): close one first")
                    : NotSupported("the server is stopping"),
                operation);
  }
  // From Last-Event-ID ("domain/repository/token"): the events of every repository
  // published after it (EventHub::Since), read from their change logs, then the live
  // ones (subscribed first: none falls between).
  std::vector<fixture::EventFrame> backlog;
  if (!request.last_event_id.empty()) {
    const std::string& id = request.last_event_id;
    const size_t first = id.find('/');
    const size_t last = id.rfind('/');
    uint64_t token = 0;
    const bool parsed = first != std::string::npos && last != first &&
                        std::from_chars(id.data() + last + 1, id.data() + id.size(), token).ec == std::errc();
    if (!parsed) {
      return fail(InvalidArgument("header 'Last-Event-ID' must be an event id of this stream "
                                  "(domain/repository/token), got '" + id.substr(0, 100) + "'"),
                  operation);
    }
    std::shared_lock<fixture::StateLock> state(state_mu_);
    auto missed = MissedFrames(*store_, id.substr(0, last), token, hub.Since(id.substr(0, last), token));
    if (!missed.ok()) return fail(missed.status(), operation);
    backlog = std::move(*missed);
  }
  Response r;
  r.content_type = "text/event-stream; charset=utf-8";
  r.headers.emplace_back("Cache-Control", "no-store");
  r.headers.emplace_back("X-Accel-Buffering", "no");  // a reverse proxy passes each event on at once
  r.body = ": folio events\n\n";                       // the stream is open
  r.producer = hub.Stream(std::move(subscriber), std::move(backlog));
  r.operation = operation;
  return r;
}

}  // namespace folio::api
