// What an open repository keeps in memory to answer reads without the disk, each part
// bounded here, in one place (RepositoryOptions::caches, StoreOptions::caches). Every
// kept entry is checked against its file before use, so the bounds trade memory for
// reads, never correctness. The defaults hold a server's resident memory near 30 MB with
// 100,000 documents (bench/RESULTS.md) while a listing of 10,000 is served from memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace folio {

struct RepositoryCaches {
  // Parsed records (folder.json, series.json, version records), by file: at most this
  // many, taking at most `record_bytes` as their parses count (repo::lookup::RecordReader).
  size_t records = 8192;
  uint64_t record_bytes = uint64_t{4} << 20;
  // Decoded series records: swept of those whose parse is gone when past this many.
  size_t series = 2048;
  // Built documents (repo::lookup::ObjectBuilder): swept of stale ones when past this many.
  size_t documents = 2048;
  // Decoded adoption tables (docs/STORAGE.md §4.1): at most this many, taking at most
  // `adoption_table_bytes` (about 2,400 documents per MiB: the folders a listing, the
  // query index's scanning threads and the requests between them read at once).
  size_t adoption_tables = 256;
  uint64_t adoption_table_bytes = uint64_t{2} << 20;
  // The tables' keys (16 bytes a document), kept longer than their decodings so that a
  // lookup decodes only the table it needs: up to 4 MiB, some 250,000 documents.
  size_t adoption_keys = 4096;
  uint64_t adoption_key_bytes = uint64_t{4} << 20;
  // Folders whose adoption table numbers are kept (one stat instead of a listing).
  size_t adoption_folders = 1024;
  // Visible document paths known to be regular files, with their identity
  // (repo::lookup::Locator): forgotten all at once when past this many.
  size_t known_paths = 4096;
};

}  // namespace folio
