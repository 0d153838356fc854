// An in-process server for HTTP tests: a fresh data directory built through the Store
// API (domain "demo"; repository "alpha" in variant A and "beta" in variant B, each
// with folder "docs" holding "readme.txt" = "hello"), served on a free loopback port,
// and an httplib::Client pointed at it.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/dispatch.h"
#include "api/fixture/data_states.h"
#include "api/fixture/event_hub.h"
#include "folio/store.h"
#include "http/server.h"
#include "support/http_client.h"
#include "support/temp_dir.h"

namespace folio::testing {

// Resident-memory bounds hold for the real build only: AddressSanitizer pads every
// allocation and keeps freed memory in quarantine, ThreadSanitizer maps shadow memory
// for every byte touched (the figures are printed either way).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kRssBoundsHold = false;
#else
inline constexpr bool kRssBoundsHold = true;
#endif

using Json = nlohmann::ordered_json;

struct ServerConfig {
  api::ServiceOptions service;
  http::ServerOptions http;
  bool read_only_store = false;
  uint64_t change_log_max_events = 100000;  // StoreOptions::change_log_max_events
  uint32_t version_list_max = 1000;          // StoreOptions::version_list_max
  // The fixture endpoints (docs/API.md §14): the start state and snapshots (kept in a
  // temporary directory), and the live events with these options.
  bool fixture_endpoints = false;
  api::fixture::EventHubOptions events;
};

inline void BuildFixtureData(const std::string& dir) {
  auto store = Store::Open(dir, {.durable = false});
  REQUIRE(store.ok());
  REQUIRE((*store)->CreateDomain("demo", "test domain").ok());
  for (const auto& [id, variant] : {std::pair<std::string, std::string>{"alpha", "A"}, {"beta", "B"}}) {
    RepositoryInfo info;
    info.repository_id = id;
    info.name = "Repository " + id;
    info.variant = variant;
    REQUIRE((*store)->CreateRepository("demo", info).ok());
    auto repo = (*store)->GetRepository("demo", id);
    REQUIRE(repo.ok());
    NewObject folder;
    folder.name = "docs";
    auto f = (*repo)->CreateFolder((*repo)->info().root_folder_id, folder, "alice", WriteCheck::Trusted());
    REQUIRE(f.ok());
    NewObject doc;
    doc.name = "readme.txt";
    auto d = (*repo)->CreateDocument(f->id, doc, ContentSource::FromBytes("hello", "text/plain"),
                                     VersioningState::kMajor, "alice", WriteCheck::Trusted());
    REQUIRE(d.ok());
  }
}

class ServerFixture {
 public:
  explicit ServerFixture(ServerConfig config = {}) {
    spdlog::set_level(spdlog::level::warn);  // no request log lines in test output
    BuildFixtureData(dir_.path());
    StoreOptions store_options;
    store_options.durable = false;
    store_options.read_only = config.read_only_store;
    store_options.change_log_max_events = config.change_log_max_events;
    store_options.version_list_max = config.version_list_max;
    if (config.fixture_endpoints) {
      events_ = std::make_shared<api::fixture::EventHub>(config.events);
      store_options.on_changes = events_->Listener();
      auto states = api::fixture::DataStates::Open({dir_.path(), "", snapshots_.path(), /*durable=*/false});
      REQUIRE(states.ok());
      config.service.fixture.states = std::move(*states);
      config.service.fixture.events = events_;
      config.service.fixture.reopen = store_options;
    }
    auto store = Store::Open(dir_.path(), store_options);
    REQUIRE(store.ok());
    store_ = std::move(*store);
    service_ = std::make_unique<api::Service>(*store_, config.service);
    config.http.port = 0;  // on config.http.host: 127.0.0.1 unless a test says otherwise
    if (config.http.threads == 0) config.http.threads = 2;
    server_ = std::make_unique<http::Server>(*service_, config.http);
    REQUIRE(server_->Start().ok());
  }
  ~ServerFixture() { server_->Stop(); }

  int port() const { return server_->port(); }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port()); }
  httplib::Client Client() const {
    auto c = TestClient("127.0.0.1", port());
    c.set_read_timeout(10, 0);
    return c;
  }
  const std::string& dir() const { return dir_.path(); }
  const std::string& snapshot_dir() const { return snapshots_.path(); }
  // The Store the server started with (a reset or restore opens another).
  Store& store() { return *store_; }
  http::Server& server() { return *server_; }
  api::Service& service() { return *service_; }

 private:
  TempDir dir_;
  TempDir snapshots_;
  std::shared_ptr<api::fixture::EventHub> events_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<api::Service> service_;
  std::unique_ptr<http::Server> server_;
};

// The fixture's repositories by variant: "alpha" (A, property ids without the cmis:
// prefix) and "beta" (B, with it).
struct FixtureVariant {
  std::string repo;
  std::string prefix;  // "" in variant A, "cmis:" in variant B
};
inline const FixtureVariant kFixtureVariants[] = {{"alpha", ""}, {"beta", "cmis:"}};

// Helpers to send the same request in each body encoding (docs/API.md §3.2–§3.3).
enum class Encoding { kJson, kMultipart, kUrlencoded };

inline const char* EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kJson: return "json";
    case Encoding::kMultipart: return "multipart";
    case Encoding::kUrlencoded: return "urlencoded";
  }
  return "";
}

struct Upload {
  std::string bytes;
  std::string file_name;
  std::string content_type = "text/plain";
};

// POSTs `fields` and `properties` (id -> value; arrays for multi-valued) to `path`,
// encoded as `enc`; `content` requires multipart.
inline httplib::Result PostAs(httplib::Client& c, const std::string& path, Encoding enc,
                              const std::vector<std::pair<std::string, std::string>>& fields,
                              const Json& properties = Json::object(), const Upload* content = nullptr) {
  if (enc == Encoding::kJson) {
    Json body = Json::object();
    for (const auto& [k, v] : fields) body[k] = v;
    if (!properties.empty()) body["properties"] = properties;
    return c.Post(path.c_str(), body.dump(), "application/json");
  }
  std::vector<std::pair<std::string, std::string>> all = fields;
  size_t n = 0;
  for (auto it = properties.begin(); it != properties.end(); ++it, ++n) {
    all.emplace_back("propertyId[" + std::to_string(n) + "]", it.key());
    if (it->is_array()) {
      for (size_t m = 0; m < it->size(); ++m) {
        const Json& v = (*it)[m];
        all.emplace_back("propertyValue[" + std::to_string(n) + "][" + std::to_string(m) + "]",
                         v.is_string() ? v.get<std::string>() : v.dump());
      }
    } else if (!it->is_null()) {
      all.emplace_back("propertyValue[" + std::to_string(n) + "]",
                       it->is_string() ? it->get<std::string>() : it->dump());
    }
  }
  if (enc == Encoding::kUrlencoded) {
    std::string body;
    for (const auto& [k, v] : all) {
      if (!body.empty()) body += '&';
      body += httplib::detail::encode_query_param(k) + "=" + httplib::detail::encode_query_param(v);
    }
    return c.Post(path.c_str(), body, "application/x-www-form-urlencoded");
  }
  httplib::MultipartFormDataItems items;
  if (content != nullptr) items.push_back({"content", content->bytes, content->file_name, content->content_type});
  for (const auto& [k, v] : all) items.push_back({k, v, "", ""});
  return c.Post(path.c_str(), items);
}

inline Json BodyJson(const httplib::Result& r) {
  REQUIRE(r);
  auto j = Json::parse(r->body, nullptr, false);
  return j;
}

// GETs `url`, checks the status, and returns the body as JSON.
inline Json GetJson(httplib::Client& c, const std::string& url, int status = 200) {
  auto r = c.Get(url.c_str());
  REQUIRE(r);
  CHECK(r->status == status);
  return BodyJson(r);
}

// The value of a property in an object response, whichever form it has.
inline Json Prop(const Json& object, const std::string& id) {
  if (object.contains("succinctProperties")) return object["succinctProperties"].value(id, Json());
  if (object.contains("properties") && object["properties"].contains(id)) return object["properties"][id]["value"];
  return Json();
}

}  // namespace folio::testing
