// The reference model of the model-based test (model_test.cc): a repository as a user
// sees it, in memory, with the rules of the contract and nothing of how Folio stores
// it. Objects are named by handles the test gives them (#1, #2, ...; the root folder is
// #0), never by engine ids, so that a shrunk sequence reads the same every run.
//
// What it promises: Describe() lists what every folder and document must look like
// after the operations applied so far, one line per object in path order; the engine
// side (sut.h) prints the same lines from what the repository answers, and the two
// must be equal.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace folio::model {

// One version of a document: its label (seed rule 1: <major>.<minor>) and its content,
// fixed once made except by changes of the latest version (setContent, a hand edit of
// the visible file).
struct Version {
  int major = 1;
  int minor = 0;
  std::string content;
  std::string description;  // each version keeps its own properties
  std::string name;
  std::string Label() const { return std::to_string(major) + "." + std::to_string(minor); }
};

struct Folder {
  int parent = 0;
  std::string name;
  std::string description;
  std::set<std::string> readers;  // principals granted cmis:read by applyACL
};

struct Doc {
  int parent = 0;
  std::string name;  // the visible file's
  std::vector<Version> versions;  // oldest first; empty for a document created checked out
  std::optional<std::string> pwc;  // the working copy's content while checked out
  std::string pwc_name;            // the working copy's name (a check-in gives it to the new version)
  std::string pwc_from;            // the label it was checked out from ("" if none)
  std::string pwc_description;
  std::set<std::string> readers;
};

struct Model {
  std::map<int, Folder> folders{{0, Folder{}}};
  std::map<int, Doc> docs;

  bool HasFolder(int h) const { return folders.count(h) != 0; }
  bool HasDoc(int h) const { return docs.count(h) != 0; }
  bool Exists(int h) const { return HasFolder(h) || HasDoc(h); }

  // The next handle a new object gets: one past the largest ever used in this model
  // (a command carries the handle it was generated with; see commands.h).
  int NextHandle() const {
    int n = 1;
    if (!folders.empty()) n = std::max(n, folders.rbegin()->first + 1);
    if (!docs.empty()) n = std::max(n, docs.rbegin()->first + 1);
    return n;
  }

  // The repository-relative path of a folder ("" for the root) or document.
  std::string PathOf(int h) const {
    if (h == 0) return "";
    const int parent = HasFolder(h) ? folders.at(h).parent : docs.at(h).parent;
    const std::string& name = HasFolder(h) ? folders.at(h).name : docs.at(h).name;
    const std::string up = PathOf(parent);
    return up.empty() ? name : up + "/" + name;
  }

  // True when folder `f` has a child named `name` (a folder or a document).
  bool NameTaken(int f, const std::string& name) const {
    for (const auto& [h, folder] : folders) {
      if (h != 0 && folder.parent == f && folder.name == name) return true;
    }
    for (const auto& [h, doc] : docs) {
      if (doc.parent == f && doc.name == name) return true;
    }
    return false;
  }

  // True when folder `f` is `ancestor` or lies below it.
  bool Within(int f, int ancestor) const {
    for (int at = f;; at = folders.at(at).parent) {
      if (at == ancestor) return true;
      if (at == 0) return false;
    }
  }

  // Removes folder `f` and everything below it.
  void RemoveTree(int f) {
    std::vector<int> below;
    for (const auto& [h, folder] : folders) {
      if (h != 0 && h != f && Within(folder.parent, f)) below.push_back(h);
    }
    for (auto it = docs.begin(); it != docs.end();) {
      it = Within(it->second.parent, f) ? docs.erase(it) : std::next(it);
    }
    for (int h : below) folders.erase(h);
    folders.erase(f);
  }

  bool IsEmpty(int f) const {
    for (const auto& [h, folder] : folders) {
      if (h != 0 && folder.parent == f) return false;
    }
    for (const auto& [h, doc] : docs) {
      if (doc.parent == f) return false;
    }
    return true;
  }

  // The label a check-in makes (seed §3 rules 1-2): counted from the latest version; a
  // document with no version yet starts at 1.0 (major) or 0.1 (minor).
  static Version NextVersion(const Doc& d, bool major) {
    Version v;
    const int M = d.versions.empty() ? 0 : d.versions.back().major;
    const int m = d.versions.empty() ? 0 : d.versions.back().minor;
    if (major) {
      v.major = M + 1;
      v.minor = 0;
    } else {
      v.major = M;
      v.minor = m + 1;
    }
    return v;
  }

  // The expected state, one line per object in path order (see the file comment).
  std::vector<std::string> Describe() const {
    std::vector<std::string> out;
    for (const auto& [h, f] : folders) {
      if (h == 0) continue;
      out.push_back(FolderLine(PathOf(h), f.description, f.readers));
    }
    for (const auto& [h, d] : docs) {
      std::vector<std::pair<std::string, std::string>> versions;
      for (const Version& v : d.versions) versions.emplace_back(v.Label(), v.content);
      const std::string description = d.versions.empty() ? d.pwc_description : d.versions.back().description;
      out.push_back(DocLine(PathOf(h), description, versions, d.pwc, d.pwc ? d.pwc_name : "", d.pwc_description, d.readers));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  static std::string Quote(const std::string& s) { return "\"" + s + "\""; }
  static std::string Readers(const std::set<std::string>& readers) {
    std::string out = "acl=[";
    for (const std::string& r : readers) out += (out.size() > 5 ? "," : "") + r;
    return out + "]";
  }
  static std::string FolderLine(const std::string& path, const std::string& description,
                                const std::set<std::string>& readers) {
    return "/" + path + "/ desc=" + Quote(description) + " " + Readers(readers);
  }
  static std::string DocLine(const std::string& path, const std::string& description,
                             const std::vector<std::pair<std::string, std::string>>& versions,
                             const std::optional<std::string>& pwc, const std::string& pwc_name,
                             const std::string& pwc_description, const std::set<std::string>& readers) {
    std::string out = "/" + path + " desc=" + Quote(description) + " versions=[";
    for (size_t i = 0; i < versions.size(); ++i) {
      out += (i ? " " : "") + versions[i].first + "=" + Quote(versions[i].second);
    }
    out += "]";
    if (pwc) out += " pwc(" + pwc_name + " desc=" + Quote(pwc_description) + ")=" + Quote(*pwc);
    return out + " " + Readers(readers);
  }
};

}  // namespace folio::model
