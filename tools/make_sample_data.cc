// folio_make_sample_data OUT: builds the sample data directory through the engine, so
// it is in the real on-disk format: domain "demo" with repository "plain" (variant A)
// and "cmis" (variant B), each holding the same small, realistic set of objects.
// scripts/make-sample-data.sh regenerates sample-data/ with it.
#include <sys/stat.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "folio/repository.h"
#include "folio/store.h"
#include "sample_files.h"

namespace {

using folio::CheckInRequest;
using folio::ContentSource;
using folio::Json;
using folio::NewObject;
using folio::ObjectData;
using folio::Repository;
using folio::Result;
using folio::Status;
using folio::VersioningState;

[[noreturn]] void Die(const std::string& what, const Status& s) {
  std::cerr << "folio_make_sample_data: " << what << ": " << s.ToString() << "\n";
  std::exit(1);
}

template <typename T>
T Must(Result<T> r, const std::string& what) {
  if (!r.ok()) Die(what, r.status());
  return std::move(r).value();
}

// --- Contents ----------------------------------------------------------------------

const char* kReadme =
    "# Welcome to Folio\n"
    "\n"
    "This repository is sample data: a few projects, reports and an inbox, as a small\n"
    "team would keep them. Try it with:\n"
    "\n"
    "    folio inspect sample-data\n"
    "    curl 'http://127.0.0.1:8080/demo/cmis/Projects/Apollo?operation=children'\n"
    "\n"
    "Everything here was made through the Folio engine by tools/make_sample_data.cc.\n";

// mission-plan.md: four versions, each a plausible edit of the one before.
const char* kPlan10 =
    "# Apollo mission plan\n"
    "\n"
    "Status: draft\n"
    "\n"
    "## Objective\n"
    "Land two crew members on the Moon and return them safely to Earth.\n";
const char* kPlan11 =
    "# Apollo mission plan\n"
    "\n"
    "Status: draft\n"
    "\n"
    "## Objective\n"
    "Land two crew members on the Moon and return them safely to Earth.\n"
    "\n"
    "## Launch window\n"
    "16-18 July, Launch Complex 39A, 13:32 UTC.\n"
    "\n"
    "## Crew\n"
    "- Commander: N. Armstorng\n"
    "- Command module pilot: M. Collins\n"
    "- Lunar module pilot: E. Aldrin\n";
const char* kPlan20 =
    "# Apollo mission plan\n"
    "\n"
    "Status: approved by the flight director\n"
    "\n"
    "## Objective\n"
    "Land two crew members on the Moon and return them safely to Earth.\n"
    "\n"
    "## Launch window\n"
    "16-18 July, Launch Complex 39A, 13:32 UTC.\n"
    "\n"
    "## Crew\n"
    "- Commander: N. Armstorng\n"
    "- Command module pilot: M. Collins\n"
    "- Lunar module pilot: E. Aldrin\n"
    "\n"
    "## Timeline\n"
    "| day | event |\n"
    "|-----|-------|\n"
    "| 1   | launch, trans-lunar injection |\n"
    "| 4   | lunar orbit insertion |\n"
    "| 5   | landing, surface activity (2.5 h) |\n"
    "| 8   | splashdown, Pacific Ocean |\n";
const char* kPlan21 =
    "# Apollo mission plan\n"
    "\n"
    "Status: approved by the flight director\n"
    "\n"
    "## Objective\n"
    "Land two crew members on the Moon and return them safely to Earth.\n"
    "\n"
    "## Launch window\n"
    "16-18 July, Launch Complex 39A, 13:32 UTC.\n"
    "\n"
    "## Crew\n"
    "- Commander: N. Armstrong\n"
    "- Command module pilot: M. Collins\n"
    "- Lunar module pilot: E. Aldrin\n"
    "\n"
    "## Timeline\n"
    "| day | event |\n"
    "|-----|-------|\n"
    "| 1   | launch, trans-lunar injection |\n"
    "| 4   | lunar orbit insertion |\n"
    "| 5   | landing, surface activity (2.5 h) |\n"
    "| 8   | splashdown, Pacific Ocean |\n";

const char* kBudget =
    "item,owner,q1,q2,q3,q4\n"
    "Saturn V stages,propulsion,1200000,1350000,900000,400000\n"
    "Command module,spacecraft,800000,760000,500000,250000\n"
    "Lunar module,spacecraft,650000,700000,720000,300000\n"
    "Mission control,operations,210000,215000,230000,260000\n";
// What bob has changed in his working copy so far.
const char* kBudgetDraft =
    "item,owner,q1,q2,q3,q4\n"
    "Saturn V stages,propulsion,1200000,1350000,900000,400000\n"
    "Command module,spacecraft,800000,760000,540000,250000\n"
    "Lunar module,spacecraft,650000,700000,780000,320000\n"
    "Mission control,operations,210000,215000,230000,260000\n"
    "Recovery fleet,operations,0,0,90000,180000\n";

const char* kGeminiRequirements =
    "Gemini rendezvous requirements\n"
    "==============================\n"
    "\n"
    "R1  The spacecraft shall change orbit under crew control.\n"
    "R2  Two spacecraft shall come within 30 m of each other and hold station.\n"
    "R3  The crew shall dock with an Agena target vehicle.\n"
    "R4  Extravehicular activity shall be possible for up to 2 hours.\n";

const char* kCallNotes =
    "Call with the tracking station, 4 March\n"
    "\n"
    "- Honeysuckle Creek confirms coverage for the surface activity.\n"
    "- Backup antenna test moved to next Tuesday.\n"
    "- Carol to send the updated contact sheet.\n";

const char* kFigures =
    "metric,january,february,march\n"
    "milestones met,4,5,7\n"
    "open risks,12,10,9\n"
    "budget used (%),21,38,55\n"
    "staff,312,318,325\n";

// --- Building ----------------------------------------------------------------------

class SampleBuilder {
 public:
  explicit SampleBuilder(std::shared_ptr<Repository> repo) : repo_(std::move(repo)) {}

  void Build() {
    const std::string root = repo_->info().root_folder_id;
    DefineReportType();

    Doc(root, "README.md", kReadme, "alice");

    ObjectData inbox = Folder(root, "Inbox", "Scans and notes waiting to be filed", "carol");
    Doc(inbox.id, "whiteboard-2026-03-02.png", folio::tools::MakePng(16), "bob");
    Doc(inbox.id, "call-notes.txt", kCallNotes, "carol");

    ObjectData projects = Folder(root, "Projects", "Active projects", "alice");
    ObjectData apollo = Folder(projects.id, "Apollo", "Lunar landing programme", "alice");
    ObjectData plan = MissionPlan(apollo.id);
    CheckedOutBudget(apollo.id);
    ObjectData gemini = Folder(projects.id, "Gemini", "Rendezvous and docking", "carol");
    Doc(gemini.id, "requirements.txt", kGeminiRequirements, "carol");
    Item(projects.id, "contractor-acme-aerospace", "Acme Aerospace: lunar module contractor, contact D. Ortiz");

    ObjectData reports = Folder(root, "Reports", "Quarterly and annual reports", "dave");
    ObjectData y2026 = Folder(reports.id, "2026", "", "dave");
    ObjectData summary = QuarterlySummary(y2026.id);
    Doc(y2026.id, "q1-figures.csv", kFigures, "dave");

    NewObject rel;
    rel.name = "summary-cites-plan";
    rel.properties = Json{{"cmis:sourceId", summary.series_id}, {"cmis:targetId", plan.series_id}};
    Must(repo_->CreateRelationship(rel, "dave", folio::WriteCheck::Trusted()), "create relationship");
  }

 private:
  ObjectData Folder(const std::string& parent, const std::string& name, const std::string& description,
                    const std::string& user) {
    NewObject o;
    o.name = name;
    if (!description.empty()) o.properties["cmis:description"] = description;
    return Must(repo_->CreateFolder(parent, o, user, folio::WriteCheck::Trusted()), "create folder '" + name + "'");
  }

  ObjectData Doc(const std::string& parent, const std::string& name, const std::string& bytes, const std::string& user,
                 const std::string& type_id = "", const Json& properties = Json::object()) {
    NewObject o;
    o.name = name;
    o.type_id = type_id;
    o.properties = properties;
    return Must(repo_->CreateDocument(parent, o, ContentSource::FromBytes(bytes), VersioningState::kMajor, user,
                                      folio::WriteCheck::Trusted()),
                "create document '" + name + "'");
  }

  void Item(const std::string& parent, const std::string& name, const std::string& description) {
    NewObject o;
    o.name = name;
    o.properties["cmis:description"] = description;
    Must(repo_->CreateItem(parent, o, "alice", folio::WriteCheck::Trusted()), "create item '" + name + "'");
  }

  ObjectData CheckIn(const ObjectData& doc, const std::string& user, bool major, const std::string& comment,
                     const std::string& bytes) {
    ObjectData pwc = Must(repo_->CheckOut(doc.id, user, folio::WriteCheck::Trusted()), "check out '" + doc.name + "'");
    CheckInRequest req;
    req.major = major;
    req.comment = comment;
    req.content = ContentSource::FromBytes(bytes);
    return Must(repo_->CheckIn(pwc.id, req, user, folio::WriteCheck::Trusted()), "check in '" + doc.name + "'");
  }

  // Versions 1.0, 1.1, 2.0, 2.1, each with different content and a check-in comment.
  ObjectData MissionPlan(const std::string& folder) {
    ObjectData doc = Doc(folder, "mission-plan.md", kPlan10, "alice");
    doc = CheckIn(doc, "alice", false, "Add launch window and crew", kPlan11);
    doc = CheckIn(doc, "carol", true, "Approved by the flight director; timeline added", kPlan20);
    return CheckIn(doc, "alice", false, "Fix the commander's name", kPlan21);
  }

  // Checked out by bob, whose working copy already differs from version 1.0.
  void CheckedOutBudget(const std::string& folder) {
    ObjectData doc = Doc(folder, "budget.csv", kBudget, "alice");
    ObjectData pwc = Must(repo_->CheckOut(doc.id, "bob", folio::WriteCheck::Trusted()), "check out 'budget.csv'");
    Must(repo_->SetContent(pwc.id, ContentSource::FromBytes(kBudgetDraft), true, "bob", folio::WriteCheck::Trusted()),
         "edit the working copy of 'budget.csv'");
  }

  void DefineReportType() {
    Json def = {{"id", "acme:report"},
                {"parentId", "cmis:document"},
                {"displayName", "Report"},
                {"description", "A periodic report with its quarter and owning department"},
                {"propertyDefinitions",
                 {{"acme:quarter",
                   {{"propertyType", "string"},
                    {"cardinality", "single"},
                    {"updatability", "readwrite"},
                    {"displayName", "Quarter"}}},
                  {"acme:department",
                   {{"propertyType", "string"},
                    {"cardinality", "single"},
                    {"updatability", "readwrite"},
                    {"displayName", "Department"}}}}}};
    Must(repo_->CreateType(def, folio::WriteCheck::Trusted()), "create type 'acme:report'");
  }

  ObjectData QuarterlySummary(const std::string& folder) {
    const std::string pdf =
        folio::tools::MakePdf("Q1 2026 summary",
                              "Milestones met: 7 of 8.\nOpen risks down from 12 to 9.\nBudget used: 55 percent.\n"
                              "Next quarter: lunar module test flight.");
    return Doc(folder, "q1-summary.pdf", pdf, "dave", "acme:report",
               Json{{"acme:quarter", "2026-Q1"}, {"acme:department", "Flight Operations"}});
  }

  std::shared_ptr<Repository> repo_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]).empty() || argv[1][0] == '-') {
    std::cerr << "usage: folio_make_sample_data OUT\n"
                 "Builds a sample data directory in OUT, which must not exist.\n";
    return 2;
  }
  const std::string out = argv[1];
  struct stat st;
  if (::lstat(out.c_str(), &st) == 0) {
    std::cerr << "folio_make_sample_data: '" << out << "' exists; remove it first\n";
    return 2;
  }
  auto store = Must(folio::Store::Open(out), "create data directory '" + out + "'");
  Must(store->CreateDomain("demo", "Sample content for trying Folio: one repository per variant"),
       "create domain 'demo'");
  struct RepoSpec {
    const char* id;
    const char* name;
    const char* description;
    const char* variant;
  };
  for (const RepoSpec& spec : {RepoSpec{"plain", "Plain", "Team documents with unprefixed property names", "A"},
                               RepoSpec{"cmis", "CMIS", "Team documents with CMIS property names", "B"}}) {
    folio::RepositoryInfo info;
    info.repository_id = spec.id;
    info.name = spec.name;
    info.description = spec.description;
    info.variant = spec.variant;
    Must(store->CreateRepository("demo", info), std::string("create repository '") + spec.id + "'");
    SampleBuilder(Must(store->GetRepository("demo", spec.id), "open repository")).Build();
  }
  std::cout << "sample data written to " << out << "\n";
  return 0;
}
