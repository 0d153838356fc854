// folio export: a repository written out as plain directories and files (the
// latest version of each document under its name), and with all_versions each
// document's versions beside it in "<name>.versions/<stem> v<label><ext>".
// Files are written under a temp name and renamed into place with the version's
// modification time, so an interrupted export is finished by running it again
// (what is there, same size and time, is skipped).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/host_files.h"
#include "cli/progress.h"
#include "folio/status.h"

namespace folio::cli {

struct ExportOptions {
  std::string data_dir;
  std::string domain, repository;
  std::string dest;  // created if missing (its parent must exist)
  bool all_versions = false;
  bool while_serving = false;
  ProgressOptions progress;
};

struct ExportReport {
  uint64_t folders = 0;
  uint64_t documents = 0;
  uint64_t files = 0;  // files the export consists of (documents, and versions
                       // with all_versions)
  uint64_t bytes = 0;
  uint64_t written = 0;
  uint64_t written_bytes = 0;
  uint64_t already_there = 0;
  uint64_t not_files = 0;         // items and relationships: they have no file form
  std::vector<LeftOut> left_out;  // documents that could not be written, and why
  bool interrupted = false;
  double seconds = 0;
};

// The versions directory of document `name` ("q3.txt" -> "q3.txt.versions").
std::string VersionsDirName(const std::string& name);
// The file of a version named `name` with label `label` ("q3.txt", "1.1" -> "q3
// v1.1.txt"; "README", "2.0" -> "README v2.0"; ".profile", "1.0" -> ".profile
// v1.0").
std::string VersionFileName(const std::string& name, const std::string& label);

// Exports the repository. Errors: kInvalidArgument when DATA is not a data
// directory; kObjectNotFound for a missing domain or repository (naming it);
// kConstraint while a read-write server holds DATA (unless while_serving), or
// when DEST is not a directory; kStorage.
Result<ExportReport> RunExport(const ExportOptions& options);

}  // namespace folio::cli
