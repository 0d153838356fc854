// Checks of documents: the user-visible file, the version list and version files,
// content lengths, the working copy, check-out markers and the latest content.
#include <algorithm>
#include <set>

#include "fsck/checks.h"
#include "repo/versions/version_label.h"
#include "repo/versions/version_files.h"

namespace folio::fsck {
namespace {

std::string DocName(const SeriesFact& s) { return "document '/" + s.ObjectPath() + "'"; }

bool Lists(const SeriesFact& s, const std::string& label) {
  return std::find(s.all_labels.begin(), s.all_labels.end(), label) != s.all_labels.end();
}


}  // namespace

Problems CheckContentFiles(const RepoFacts& f) {
  Problems out;
  for (const SeriesFact& s : f.series) {
    std::string what;
    if (!s.visible_stat) {
      what = "missing user-visible file '" + s.visible + "' of " + DocName(s);
    } else if (s.visible_stat->type != FileType::kFile) {
      what = "user-visible file '" + s.visible + "' of " + DocName(s) + " is not a regular file";
    } else {
      continue;
    }
    out.push_back(MakeProblem(kContentFileMissing, s.visible, what + ": its series is an orphan",
                              Act(Action::Kind::kMoveToLostFound, s.dir)));
  }
  return out;
}

Problems CheckVersionLabels(const RepoFacts& f) {
  Problems out;
  for (const SeriesFact& s : f.series) {
    if (!s.series) continue;
    auto bad = [&](const std::string& path, const std::string& message) {
      out.push_back(MakeProblem(kVersionLabelsInvalid, path, message));
    };
    if (s.series->versions.empty() && !s.series->checked_out) {
      bad(s.series_file, "no versions and no check-out in '" + s.series_file + "'");
    }
    if (s.series->versions.empty() && !s.series->archived.empty()) {
      bad(s.series_file, "archived versions but none listed in '" + s.series_file + "': the latest must be listed");
    }
    for (const auto& [path, message] : s.archive_errors) bad(path, message);
    std::optional<repo::versions::VersionLabel> prev;
    std::string prev_text;
    for (const std::string& text : s.all_labels) {
      auto label = repo::versions::VersionLabel::Parse(text);
      if (!label || label->ToString() != text) {
        bad(s.series_file, "invalid version label '" + text + "' in '" + s.series_file + "'");
        continue;
      }
      if (prev && !(*prev < *label)) {
        bad(s.series_file, "version '" + text + "' listed after '" + prev_text + "' in '" + s.series_file +
                               "': labels must strictly increase");
      }
      prev = label;
      prev_text = text;
      auto it = s.labels.find(text);
      if (it == s.labels.end() || !it->second.record) continue;
      const repo::ObjectRecord& rec = *it->second.record;
      const std::string& path = it->second.json_path;
      if (rec.label != text) {
        bad(path, "wrong label '" + rec.label + "' in version record '" + path + "': expected '" + text + "'");
      } else if (rec.major != label->IsMajor()) {
        bad(path, std::string("wrong major flag in version record '") + path + "': " + text + " is a " +
                      (label->IsMajor() ? "major" : "minor") + " version");
      }
    }
  }
  return out;
}

Problems CheckVersionFiles(const RepoFacts& f) {
  Problems out;
  for (const SeriesFact& s : f.series) {
    if (!s.series) continue;
    std::set<std::string> seen;
    for (const std::string& label : s.all_labels) {
      if (!seen.insert(label).second) continue;
      auto it = s.labels.find(label);
      if (it == s.labels.end() || !it->second.json) {
        const std::string path = f.layout.VersionProps(s.folder, s.name, label);
        // Rebuilt from the series, the version's content and the document's other
        // records (a damaged record goes to lost+found first): the version stays listed.
        Action rebuild;
        rebuild.kind = Action::Kind::kRebuildVersionRecord;
        rebuild.path = path;
        rebuild.object = label;
        out.push_back(MakeProblem(kVersionFileMissing, path,
                                  "missing record '" + path + "' of version " + label + " of " + DocName(s),
                                  std::move(rebuild)));
      } else if (it->second.record && it->second.record->content && !it->second.content) {
        const std::string path = it->second.content_path;
        out.push_back(MakeProblem(kVersionFileMissing, path,
                                  "missing content file '" + path + "' of version " + label + " of " + DocName(s)));
      }
    }
    // While an archive cannot be read, which labels it holds is not known: its version
    // files are not taken for unlisted ones (version-labels-invalid names the archive).
    if (!s.archive_errors.empty()) continue;
    for (const auto& [found, path] : s.archive_files) {
      const uint64_t number = found;  // clang 14 cannot capture a structured binding
      const bool described = std::any_of(s.series->archived.begin(), s.series->archived.end(),
                                         [&](const repo::VersionArchive& a) { return a.number == number; });
      if (described) continue;
      out.push_back(MakeProblem(kVersionFileUnlisted, path,
                                "unlisted archive of version labels '" + path + "': '" + s.series_file +
                                    "' does not describe it",
                                Act(Action::Kind::kMoveToLostFound, path)));
    }
    for (const auto& [label, lf] : s.labels) {
      if (label == "pwc" || seen.count(label)) continue;
      for (const auto& [exists, path] : {std::pair{lf.json, lf.json_path}, std::pair{lf.content, lf.content_path}}) {
        if (!exists) continue;
        out.push_back(
            MakeProblem(kVersionFileUnlisted, path,
                        "unlisted version file '" + path + "': '" + s.series_file + "' does not list " + label,
                        Act(Action::Kind::kMoveToLostFound, path)));
      }
    }
  }
  return out;
}

bool SeriesFact::EditedInPlace() const {
  if (!series || series->versions.empty() || !visible_stat) return false;
  auto it = labels.find(series->versions.back());
  if (it == labels.end() || !it->second.content || it->second.content_inode != visible_stat->inode) return false;
  return visible_stat->size != series->file_size || visible_stat->mtime_ns != series->file_mtime_ns;
}

namespace {

// Calls `visit(label, files)` for each version and working copy of `s` that its series
// describes and that has a record with content and a content file.
template <typename Visit>
void ForEachContent(const SeriesFact& s, const Visit& visit) {
  if (!s.series) return;
  const std::set<std::string> listed(s.all_labels.begin(), s.all_labels.end());
  for (const auto& [label, lf] : s.labels) {
    const bool described = label == "pwc" ? s.series->checked_out.has_value() : listed.count(label) > 0;
    if (!described || !lf.record || !lf.record->content || !lf.content) continue;
    visit(label, lf);
  }
}

bool IsLatest(const SeriesFact& s, const std::string& label) {
  return !s.series->versions.empty() && label == s.series->versions.back();
}

std::string NotRepaired(const std::string& label) {
  return " (not repaired: Folio never takes changed content of " +
         std::string(label == "pwc" ? "a working copy" : "a version") + " in; restore the file from a backup)";
}

}  // namespace

Problems CheckContentLengths(Fs& fs, const RepoFacts& f) {
  Problems out;
  for (const SeriesFact& s : f.series) {
    ForEachContent(s, [&](const std::string& label, const LabelFiles& lf) {
      // An edit in place of the visible file, which is this content file: reported (and
      // taken in) as latest-content-mismatch.
      if (IsLatest(s, label) && s.EditedInPlace()) return;
      if (lf.record->content->length == lf.content_size) return;
      std::string message = "wrong content length " + std::to_string(lf.record->content->length) + " in '" +
                            lf.json_path + "': '" + lf.content_path + "' holds " + std::to_string(lf.content_size) +
                            " bytes";
      const std::string& sha = lf.record->content->sha256;
      Action fix;
      auto digest = !sha.empty() ? repo::versions::Sha256OfFile(fs, lf.content_path)
                                 : Result<std::string>(std::string());
      if (digest.ok() && !sha.empty() && *digest == sha) {
        fix = Act(Action::Kind::kSetContentLength, lf.json_path);  // the bytes checked in: the length was wrong
        fix.size = lf.content_size;
      } else {
        message += NotRepaired(label);
      }
      out.push_back(MakeProblem(kContentLengthMismatch, lf.json_path, message, fix));
    });
  }
  return out;
}

Problems CheckVersionContent(Fs& fs, const RepoFacts& f, bool compare_bytes) {
  Problems out;
  if (!compare_bytes) return out;
  for (const SeriesFact& s : f.series) {
    ForEachContent(s, [&](const std::string& label, const LabelFiles& lf) {
      const std::string& sha = lf.record->content->sha256;
      if (sha.empty() || lf.record->content->length != lf.content_size) return;  // unknown, or reported above
      // The latest version's content, when it is the visible file: an edit by hand is an
      // edit of that version (Rule V2), reported as latest-content-mismatch.
      if (IsLatest(s, label) && s.visible_stat && lf.content_inode == s.visible_stat->inode) return;
      auto got = repo::versions::Sha256OfFile(fs, lf.content_path);
      if (!got.ok() || *got == sha) return;  // unreadable now: what reads it says why
      const std::string what = label == "pwc" ? "the working copy" : "version " + label;
      out.push_back(MakeProblem(kVersionContentChanged, lf.content_path,
                                "content of " + what + " of " + DocName(s) + " changed since it was written: '" +
                                    lf.content_path + "' no longer matches its SHA-256 in '" + lf.json_path + "'" +
                                    NotRepaired(label)));
    });
  }
  return out;
}

Problems CheckWorkingCopies(const RepoFacts& f) {
  Problems out;
  for (const SeriesFact& s : f.series) {
    if (!s.series) continue;
    const auto& co = s.series->checked_out;
    auto pwc_it = s.labels.find("pwc");
    const LabelFiles* pwc = pwc_it == s.labels.end() ? nullptr : &pwc_it->second;
    const bool has_json = pwc && pwc->json;
    const bool has_content = pwc && pwc->content;
    if (co && !has_json) {
      // Without a version the series would hold nothing: set it aside whole (the
      // visible file, empty by design, is then adopted afresh).
      out.push_back(MakeProblem(kPwcInconsistent, s.series_file,
                                DocName(s) + " is checked out by '" + co->by + "' but has no working copy",
                                s.series->versions.empty() ? Act(Action::Kind::kMoveToLostFound, s.dir)
                                                           : Act(Action::Kind::kClearCheckOut, s.series_file)));
    }
    if (!co && has_json) {
      out.push_back(MakeProblem(kPwcInconsistent, pwc->json_path,
                                "stray working copy '" + pwc->json_path + "': " + DocName(s) + " is not checked out",
                                Act(Action::Kind::kMoveToLostFound, pwc->json_path)));
    }
    if (has_content && (!co || !has_json || (pwc->record && !pwc->record->content))) {
      out.push_back(MakeProblem(kPwcInconsistent, pwc->content_path,
                                "stray working copy content '" + pwc->content_path + "' of " + DocName(s),
                                Act(Action::Kind::kMoveToLostFound, pwc->content_path)));
    }
    if (co && has_json && pwc->record) {
      if (pwc->record->label != "pwc") {
        out.push_back(MakeProblem(kPwcInconsistent, pwc->json_path,
                                  "wrong label '" + pwc->record->label + "' in working copy '" + pwc->json_path + "'"));
      }
      if (pwc->record->content && !has_content) {
        out.push_back(MakeProblem(kPwcInconsistent, pwc->content_path,
                                  "missing working copy content '" + pwc->content_path + "' of " + DocName(s)));
      }
    }
    if (co) {
      const bool ok = s.series->versions.empty() ? co->from.empty() : Lists(s, co->from);
      if (!ok) {
        out.push_back(
            MakeProblem(kPwcInconsistent, s.series_file,
                        "check-out of " + DocName(s) + " is from '" + co->from + "', which is not a listed version"));
      }
    }
  }
  return out;
}

Problems CheckMarkers(const RepoFacts& f) {
  std::set<std::string> checked_out;
  for (const SeriesFact& s : f.series) {
    if (s.series && s.series->checked_out) checked_out.insert(s.series->series_id);
  }
  const std::set<std::string> markers(f.markers.begin(), f.markers.end());
  Problems out;
  if (f.markers_dir_is_file) {
    const std::string dir = f.layout.CheckedOutDir();
    out.push_back(MakeProblem(kCheckedOutMarkerMismatch, dir,
                              "check-out marker directory '" + dir + "' is not a directory",
                              Act(Action::Kind::kMoveToLostFound, dir)));
  }
  for (const std::string& id : checked_out) {
    if (markers.count(id)) continue;
    const std::string path = f.layout.CheckedOutMarker(id);
    out.push_back(MakeProblem(kCheckedOutMarkerMismatch, path,
                              "missing check-out marker '" + path + "' of checked-out document '" + id + "'",
                              Act(Action::Kind::kWriteMarker, path)));
  }
  for (const std::string& id : markers) {
    if (checked_out.count(id)) continue;
    const std::string path = f.layout.CheckedOutMarker(id);
    out.push_back(MakeProblem(kCheckedOutMarkerMismatch, path,
                              "stale check-out marker '" + path + "': no checked-out document has id '" + id + "'",
                              Act(Action::Kind::kRemoveMarker, path)));
  }
  return out;
}

Problems CheckLatestContent(Fs& fs, const RepoFacts& f, bool compare_bytes) {
  Problems out;
  for (const SeriesFact& s : f.series) {
    if (!s.series || s.series->versions.empty()) continue;
    if (!s.visible_stat || s.visible_stat->type != FileType::kFile) continue;
    const std::string& latest = s.series->versions.back();
    auto it = s.labels.find(latest);
    if (it == s.labels.end() || !it->second.record) continue;
    const LabelFiles& lf = it->second;
    bool differs = s.EditedInPlace();
    if (differs) {
      // the same file: its bytes compare equal, yet it changed since Folio wrote it
    } else if (!lf.record->content) {
      differs = s.visible_stat->size != 0;  // no content: the visible file is empty
    } else if (lf.content) {
      differs = s.visible_stat->size != lf.content_size;
      if (!differs && compare_bytes) differs = SameBytes(fs, s.visible, lf.content_path) == false;
    }
    if (!differs) continue;
    Action absorb = Act(Action::Kind::kAbsorb);
    absorb.object = s.ObjectPath();
    out.push_back(MakeProblem(kLatestContentMismatch, s.visible,
                              "user-visible file '" + s.visible + "' differs from the content of version " + latest +
                                  " of " + DocName(s) + " (edited by hand?)",
                              absorb));
  }
  return out;
}

}  // namespace folio::fsck
