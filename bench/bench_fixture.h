// The benchmark fixture: a data directory made by the engine itself, cached between
// runs. Domain "bench" holds two repositories:
//   tree: `tree_folders` folders "folder-NNNN" of `docs_per_folder` documents each;
//   flat: folder "big" with `big_docs` documents and "small" with `small_docs`.
// Documents are "doc-NNNNNN.txt", one major version (1.0) of a few bytes of text.
#pragma once

#include <string>
#include <vector>

#include "folio/repository.h"
#include "folio/status.h"

namespace folio::bench {

inline constexpr const char* kDomain = "bench";
inline constexpr const char* kTreeRepo = "tree";
inline constexpr const char* kFlatRepo = "flat";
inline constexpr const char* kBigFolder = "big";
inline constexpr const char* kSmallFolder = "small";

struct FixtureSpec {
  std::string name;  // sub-directory of the fixture directory: "full" or "quick"
  int tree_folders = 0;
  int docs_per_folder = 0;
  int big_docs = 0;
  int small_docs = 0;

  int tree_docs() const { return tree_folders * docs_per_folder; }
  // One line that identifies the sizes; stored in the marker of a finished fixture.
  std::string Describe() const;
};

FixtureSpec FullSpec();   // 1,000 x 100; big 100,000; small 1,000
FixtureSpec QuickSpec();  // 100 x 100; big 10,000; small 1,000

std::string FolderName(int i);  // "folder-0042"
std::string DocName(int i);     // "doc-000042.txt"

// The data directory of `spec` inside `fixture_dir`.
std::string DataDir(const std::string& fixture_dir, const FixtureSpec& spec);

// Makes sure the fixture of `spec` exists in `fixture_dir`: reuses a finished one,
// completes an interrupted one, otherwise generates it (printing progress to stderr).
// Errors: those of the engine; kStorage if `fixture_dir` cannot be created.
Status EnsureFixture(const std::string& fixture_dir, const FixtureSpec& spec);

// A document of the tree repository, resolved to its ids and sidecar path.
struct SampleDoc {
  std::string path;          // repository-relative: "folder-0042/doc-000017.txt"
  std::string series_id;     // "d..."
  std::string version_id;    // "d...;1.0"
  std::string sidecar_path;  // host path of its version file 1.0.json
};

// `count` distinct documents of the tree repository, chosen by a fixed seed (the same
// in every process), resolved through `repo` (GetObjectByPath).
Result<std::vector<SampleDoc>> PickSample(Repository& repo, const std::string& data_dir, const FixtureSpec& spec,
                                          int count);

}  // namespace folio::bench
