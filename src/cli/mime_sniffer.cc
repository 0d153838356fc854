// libmagic behind a MimeSniffer; see mime_sniffer.h.
#include "cli/mime_sniffer.h"

#include <magic.h>

#include <memory>
#include <mutex>

namespace folio::cli {
namespace {

class Magic {
 public:
  Magic() : cookie_(::magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR)) {
    if (cookie_ != nullptr && ::magic_load(cookie_, nullptr) != 0) {
      ::magic_close(cookie_);
      cookie_ = nullptr;
    }
  }
  ~Magic() {
    if (cookie_ != nullptr) ::magic_close(cookie_);
  }
  Magic(const Magic&) = delete;
  Magic& operator=(const Magic&) = delete;

  std::string TypeOf(std::string_view head) {
    if (cookie_ == nullptr || head.empty()) return "";
    std::lock_guard<std::mutex> lock(mu_);
    const char* type = ::magic_buffer(cookie_, head.data(), head.size());
    if (type == nullptr) return "";
    std::string t(type);
    // Names for "nothing known" rather than a type.
    if (t == "application/octet-stream" || t == "application/x-empty" || t == "inode/x-empty") return "";
    return t;
  }

 private:
  magic_t cookie_;
  std::mutex mu_;
};

}  // namespace

MimeSniffer MakeLibmagicSniffer() {
  auto magic = std::make_shared<Magic>();
  return [magic](std::string_view head) { return magic->TypeOf(head); };
}

}  // namespace folio::cli
