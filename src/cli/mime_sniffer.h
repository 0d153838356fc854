// MIME types by content, with libmagic: what folio import gives the engine for
// files whose extension says nothing (Repository::SetMimeSniffer).
#pragma once

#include <string>
#include <string_view>

#include "folio/repository.h"

namespace folio::cli {

// A sniffer backed by libmagic's default database; it answers "" (keep
// application/octet-stream) for empty input, for what libmagic cannot name, and
// when the database cannot be loaded. Thread-safe: concurrent callers get a libmagic
// handle each (made as needed, up to one per core, at most four).
MimeSniffer MakeLibmagicSniffer();

}  // namespace folio::cli
