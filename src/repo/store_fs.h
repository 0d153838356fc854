// The Fs behind a Store, for the engine's parts that keep files of their own beside the
// repositories: a domain's users and groups (repo/acl/accounts.h), the query index
// (repo/query). The api and the cli never reach it: they go through those parts.
#pragma once

#include "folio/fs.h"
#include "folio/store.h"

namespace folio::repo {

struct StoreFs {
  static Fs& Of(Store& store) { return store.fs(); }
};

}  // namespace folio::repo
