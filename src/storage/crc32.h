// CRC-32 (the polynomial of zlib and gzip) of the commit log's frames: a torn or stale
// write at the log's end is told from a record by its checksum.
#pragma once

#include <cstdint>
#include <string_view>

namespace folio::storage {

uint32_t Crc32(std::string_view bytes);

}  // namespace folio::storage
