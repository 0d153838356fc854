// HTTP tests of authentication: the ServerFixture plus a domain "acme" made through
// the API with its first user "alice" (a domain administrator), repository "main"
// (variant B) made by alice, and users "bob" and "carol"; helpers to send requests as
// one of them, and every response and log line kept, to look for secrets in them.
#pragma once

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <map>
#include <memory>
#include <chrono>
#include <mutex>
#include <thread>
#include <string>

#include "http/server_fixture.h"

namespace folio::testing {

inline httplib::Headers BasicAuth(const std::string& user, const std::string& password) {
  auto h = httplib::make_basic_authentication_header(user, password);
  return httplib::Headers{{h.first, h.second}};
}

inline std::string FormBody(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string body;
  for (const auto& [k, v] : fields) {
    if (!body.empty()) body += '&';
    body += httplib::detail::encode_query_param(k) + "=" + httplib::detail::encode_query_param(v);
  }
  return body;
}

// Sends the request log (and every other log line) to a string while alive. The
// server's threads write while a test reads: the text is read under the sink's lock.
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<Sink>()), old_(spdlog::default_logger()), old_level_(spdlog::get_level()) {
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink_));
    spdlog::set_level(spdlog::level::debug);
  }
  ~LogCapture() {
    spdlog::set_default_logger(old_);
    spdlog::set_level(old_level_);
  }
  std::string text() const { return sink_->text(); }
  // The text once it holds `needle` (a request's line is written after its answer is
  // sent: a client may have the answer before the line is there), or after 10 s.
  std::string WaitFor(const std::string& needle) const {
    for (int i = 0; i < 1000; ++i) {
      std::string t = text();
      if (t.find(needle) != std::string::npos) return t;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return text();
  }

 private:
  class Sink : public spdlog::sinks::base_sink<std::mutex> {
   public:
    std::string text() {
      std::lock_guard<std::mutex> lock(mutex_);
      return text_;
    }

   protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
      spdlog::memory_buf_t formatted;
      formatter_->format(msg, formatted);
      text_.append(formatted.data(), formatted.size());
    }
    void flush_() override {}

   private:
    std::string text_;
  };

  std::shared_ptr<Sink> sink_;
  std::shared_ptr<spdlog::logger> old_;
  spdlog::level::level_enum old_level_;
};

class AuthFixture {
 public:
  static constexpr const char* kAlicePassword = "alice-Pa55word!";
  static constexpr const char* kBobPassword = "bob-Pa55word!";
  static constexpr const char* kCarolPassword = "carol-Pa55word!";

  // `log_everything`: log at debug level from here on (ServerFixture sets warn), so that
  // a LogCapture sees every request line.
  explicit AuthFixture(ServerConfig config = {}, bool log_everything = false) : server_(std::move(config)) {
    if (log_everything) spdlog::set_level(spdlog::level::debug);
    auto made = Post("/", "", "", {{"operation", "createDomain"}, {"domainId", "acme"}, {"adminUserId", "alice"},
                                   {"adminPassword", kAlicePassword}});
    REQUIRE(made->status == 201);
    alice_key_ = BodyJson(made)["adminUser"]["apiKey"].get<std::string>();
    passwords_ = {{"alice", kAlicePassword}, {"bob", kBobPassword}, {"carol", kCarolPassword}};
    REQUIRE(Post("/acme", "alice", "", {{"operation", "createRepository"}, {"repositoryId", "main"}})->status == 201);
    for (const char* user : {"bob", "carol"}) {
      auto r = Post("/acme", "alice", "", {{"operation", "createUser"}, {"userId", user},
                                           {"password", passwords_[user]}, {"displayName", std::string("User ") + user}});
      REQUIRE(r->status == 201);
      keys_[user] = BodyJson(r)["apiKey"].get<std::string>();
    }
    keys_["alice"] = alice_key_;
  }

  ServerFixture& server() { return server_; }
  const std::string& key(const std::string& user) { return keys_[user]; }
  const std::string& password(const std::string& user) { return passwords_[user]; }

  // GET `path` as `user` (by password; "" sends no credentials).
  httplib::Result Get(const std::string& path, const std::string& user = "") {
    auto c = server_.Client();
    auto r = user.empty() ? c.Get(path.c_str()) : c.Get(path.c_str(), BasicAuth(user, passwords_[user]));
    Keep(r);
    return r;
  }
  httplib::Result GetWithKey(const std::string& path, const std::string& key) {
    auto c = server_.Client();
    auto r = c.Get(path.c_str(), httplib::Headers{{"X-API-KEY", key}});
    Keep(r);
    return r;
  }
  // POSTs an urlencoded form as `user` with `password` ("" -> the user's own; no user:
  // no credentials).
  httplib::Result Post(const std::string& path, const std::string& user, const std::string& password,
                       const std::vector<std::pair<std::string, std::string>>& fields) {
    auto c = server_.Client();
    httplib::Headers headers;
    if (!user.empty()) headers = BasicAuth(user, password.empty() ? passwords_[user] : password);
    auto r = c.Post(path.c_str(), headers, FormBody(fields), "application/x-www-form-urlencoded");
    Keep(r);
    return r;
  }
  // Every response body so far.
  const std::string& responses() const { return responses_; }

 private:
  void Keep(const httplib::Result& r) {
    if (!r) return;
    responses_ += r->body;
    responses_ += '\n';
  }

  ServerFixture server_;
  std::string alice_key_;
  std::map<std::string, std::string> passwords_;
  std::map<std::string, std::string> keys_;
  std::string responses_;
};

}  // namespace folio::testing
