// Adoption tables (docs/STORAGE.md §4.1): the codec (src/repo/hand_edits/adoption_table.h) keeps
// every field through a round trip and rejects each malformed one naming it; adopted
// series ids name their folder (storage/ids.h); table file names are "<n>.json", n >= 1
// (storage/layout.h).
#include <doctest/doctest.h>

#include <functional>
#include <set>
#include <vector>
#include <string>

#include "folio/cmis_ids.h"
#include "repo/hand_edits/adoption_table.h"
#include "storage/ids.h"
#include "storage/json_file.h"
#include "storage/layout.h"

namespace folio::repo::hand_edits {
namespace {

using storage::Json;

const std::string kFolder = "f3k9x0q2m7c1v8b4n";
const std::string kWhat = "demo/main/.folio/adopted/f3k9x0q2m7c1v8b4n/1.json";

AdoptionTable Sample() {
  AdoptionTable t;
  t.folder_id = kFolder;
  AdoptedEntry a;
  a.series_id = "d7k2m9x0a4b-" + kFolder;
  a.mime_type = "application/pdf";
  a.created_ms = 1763753400123;
  a.modified_ms = 1763753401456;
  a.file_size = 48213;
  a.file_mtime_ns = 1763753400123456789;
  a.file_inode = 5521903;
  t.documents["scan.pdf"] = a;
  AdoptedEntry b = a;
  b.series_id = "d0000000000-" + kFolder;
  b.mime_type = "text/plain";
  b.file_size = 0;
  b.file_inode = 7;
  t.documents["notes – été.txt"] = b;
  return t;
}

// The message of decoding `j`, which must fail.
std::string Rejected(const Json& j) {
  auto t = AdoptionTableFromJson(j, kWhat);
  REQUIRE_MESSAGE(!t.ok(), j.dump());
  CHECK(t.status().kind() == ErrorKind::kStorage);
  CHECK_MESSAGE(t.status().message().find("'" + kWhat + "'") != std::string::npos, t.status().message());
  return t.status().message();
}

std::string Field(const std::string& name) { return "missing or invalid field '" + name + "'"; }

}  // namespace

TEST_CASE("AdoptionTable: AdoptionTableText and AdoptionTableFromJson round-trip every field") {
  const AdoptionTable t = Sample();
  const std::string text = AdoptionTableText(t);
  const Json j = Json::parse(text);
  CHECK(j["folder"] == kFolder);
  CHECK(j["documents"]["scan.pdf"]["created"] == "2025-11-21T19:30:00.123Z");
  CHECK(j["documents"]["scan.pdf"]["file"]["mtimeNs"] == 1763753400123456789);
  // Printed as every record is (docs/STORAGE.md: two-space indents, a final newline),
  // members in the documented order, documents by name.
  CHECK(text == storage::SerializeJson(j));
  CHECK(text.find("{\n  \"folder\": \"" + kFolder + "\",\n  \"documents\": {\n    \"notes") == 0);
  CHECK(text.find("\"seriesId\"") < text.find("\"mimeType\""));
  CHECK(text.find("\"modified\"") < text.find("\"file\""));
  auto back = AdoptionTableFromJson(j, kWhat);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->folder_id == t.folder_id);
  REQUIRE(back->documents.size() == 2);
  for (const auto& [name, want] : t.documents) {
    REQUIRE(back->documents.count(name) == 1);
    const AdoptedEntry& got = back->documents.at(name);
    CHECK(got.series_id == want.series_id);
    CHECK(got.mime_type == want.mime_type);
    CHECK(got.created_ms == want.created_ms);
    CHECK(got.modified_ms == want.modified_ms);
    CHECK(got.file_size == want.file_size);
    CHECK(got.file_mtime_ns == want.file_mtime_ns);
    CHECK(got.file_inode == want.file_inode);
  }
  // A table without documents is a table (the engine removes one left empty, but it is
  // not damage).
  auto empty = AdoptionTableFromJson(Json{{"folder", kFolder}, {"documents", Json::object()}}, kWhat);
  REQUIRE(empty.ok());
  CHECK(empty->documents.empty());
  const std::string empty_text = AdoptionTableText(AdoptionTable{kFolder, {}});
  CHECK(empty_text == storage::SerializeJson(Json::parse(empty_text)));
  CHECK(AdoptionTableFromJson(Json::parse(empty_text), kWhat).ok());
}

TEST_CASE("AdoptionTable: names and types that need escaping are written as JSON escapes them") {
  AdoptionTable t = Sample();
  AdoptedEntry e = t.documents.begin()->second;
  e.mime_type = "text/x-\"quoted\"\\back";
  e.file_mtime_ns = -1;  // before 1970: a negative number
  t.documents["tab\there \"and\" back\\slash \x01.txt"] = e;
  t.documents[std::string(300, 'n') + ".txt"] = e;  // longer than the reserved share
  const std::string text = AdoptionTableText(t);
  const Json j = Json::parse(text);
  CHECK(text == storage::SerializeJson(j));
  CHECK(j["documents"]["tab\there \"and\" back\\slash \x01.txt"]["mimeType"] == e.mime_type);
  CHECK(j["documents"]["tab\there \"and\" back\\slash \x01.txt"]["file"]["mtimeNs"] == -1);
  CHECK(j["documents"].size() == 4);
  // Reserved whole, not grown by doubling: the text of a table of plain names and
  // large numbers takes no more than it needs, give or take an entry's numbers.
  AdoptionTable plain{kFolder, {}};
  for (int i = 0; i < 1000; ++i) {
    AdoptedEntry big = e;
    big.mime_type = "text/plain";
    big.file_size = UINT64_MAX;
    big.file_mtime_ns = INT64_MIN;
    big.file_inode = UINT64_MAX;
    plain.documents["note-" + std::to_string(i) + ".txt"] = big;
  }
  const std::string plain_text = AdoptionTableText(plain);
  CHECK(plain_text.capacity() <= plain_text.size() + plain_text.size() / 10);
  CHECK(plain_text == storage::SerializeJson(Json::parse(plain_text)));
}

TEST_CASE("AdoptionTable: every malformed field is rejected, naming the field") {
  const Json good = Json::parse(AdoptionTableText(Sample()));
  auto with = [&](const std::function<void(Json&)>& edit) {
    Json j = good;
    edit(j);
    return j;
  };
  const std::string e = "documents.scan.pdf";
  Json& (*entry)(Json&) = [](Json& j) -> Json& { return j["documents"]["scan.pdf"]; };

  CHECK(Rejected(Json::array()).find(Field("folder")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j.erase("folder"); })).find(Field("folder")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j["folder"] = 12; })).find(Field("folder")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j["folder"] = "a/b"; })).find(Field("folder")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j["folder"] = ""; })).find(Field("folder")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j["folder"] = kFolder + ";1.0"; })).find(Field("folder")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j.erase("documents"); })).find(Field("documents")) != std::string::npos);
  CHECK(Rejected(with([](Json& j) { j["documents"] = Json::array(); })).find(Field("documents")) !=
        std::string::npos);
  // Names: each is a file of the folder.
  for (const std::string& bad : std::vector<std::string>{"", ".", "..", "a/b", ".folio", ".Folio-x", std::string("a\0b", 3)}) {
    Json j = with([&](Json& t) { t["documents"][bad] = t["documents"]["scan.pdf"]; });
    CHECK_MESSAGE(Rejected(j).find(Field("documents." + bad)) != std::string::npos, bad);
  }
  CHECK(Rejected(with([&](Json& j) { entry(j) = "scan"; })).find(Field(e)) != std::string::npos);
  // seriesId: missing, not a string, not an adopted id, or one of another folder.
  for (const Json& bad : {Json(nullptr), Json(5), Json("d7k2m9x0a4bq1w2e3"), Json("d7k2m9x0a4b-fother000000001"),
                         Json("d7K2m9x0a4b-" + kFolder), Json("d7k2m9x0a4b" + kFolder)}) {
    CHECK_MESSAGE(Rejected(with([&](Json& j) { entry(j)["seriesId"] = bad; })).find(Field(e + ".seriesId")) !=
                      std::string::npos,
                  bad.dump());
  }
  CHECK(Rejected(with([&](Json& j) { entry(j).erase("seriesId"); })).find(Field(e + ".seriesId")) !=
        std::string::npos);
  CHECK(Rejected(with([&](Json& j) { entry(j).erase("mimeType"); })).find(Field(e + ".mimeType")) !=
        std::string::npos);
  CHECK(Rejected(with([&](Json& j) { entry(j)["mimeType"] = true; })).find(Field(e + ".mimeType")) !=
        std::string::npos);
  for (const char* date : {"created", "modified"}) {
    for (const Json& bad : {Json(nullptr), Json("yesterday"), Json(1763753400123), Json("2026-13-01T00:00:00.000Z")}) {
      CHECK_MESSAGE(Rejected(with([&](Json& j) { entry(j)[date] = bad; })).find(Field(e + "." + date)) !=
                        std::string::npos,
                    date << " " << bad.dump());
    }
    CHECK(Rejected(with([&](Json& j) { entry(j).erase(date); })).find(Field(e + "." + date)) != std::string::npos);
  }
  CHECK(Rejected(with([&](Json& j) { entry(j).erase("file"); })).find(Field(e + ".file")) != std::string::npos);
  CHECK(Rejected(with([&](Json& j) { entry(j)["file"] = 48213; })).find(Field(e + ".file")) != std::string::npos);
  for (const char* member : {"size", "mtimeNs", "inode"}) {
    CHECK_MESSAGE(Rejected(with([&](Json& j) { entry(j)["file"].erase(member); })).find(Field(e + ".file")) !=
                      std::string::npos,
                  member);
    CHECK_MESSAGE(Rejected(with([&](Json& j) { entry(j)["file"][member] = "12"; })).find(Field(e + ".file")) !=
                      std::string::npos,
                  member);
    CHECK_MESSAGE(Rejected(with([&](Json& j) { entry(j)["file"][member] = 1.5; })).find(Field(e + ".file")) !=
                      std::string::npos,
                  member);
  }
  // A negative size or inode is not one; a modification time before 1970 is.
  CHECK(Rejected(with([&](Json& j) { entry(j)["file"]["size"] = -1; })).find(Field(e + ".file")) != std::string::npos);
  CHECK(Rejected(with([&](Json& j) { entry(j)["file"]["inode"] = -1; })).find(Field(e + ".file")) !=
        std::string::npos);
  CHECK(AdoptionTableFromJson(with([&](Json& j) { entry(j)["file"]["mtimeNs"] = -5; }), kWhat).ok());
}

TEST_CASE("AdoptionTable: the series and version an entry stands for") {
  const AdoptionTable t = Sample();
  const AdoptedEntry& e = t.documents.at("scan.pdf");
  const SeriesRecord s = AdoptedSeries(e);
  CHECK(s.series_id == e.series_id);
  CHECK(s.versions == std::vector<std::string>{"1.0"});
  CHECK_FALSE(s.checked_out);
  CHECK(s.file_size == e.file_size);
  CHECK(s.file_mtime_ns == e.file_mtime_ns);
  CHECK(s.file_inode == e.file_inode);
  const ObjectRecord v = AdoptedVersion("scan.pdf", e);
  CHECK(v.label == "1.0");
  CHECK(v.major);
  CHECK(v.properties[cmis::kName] == "scan.pdf");
  CHECK(v.properties[cmis::kObjectTypeId] == "cmis:document");
  CHECK(v.properties[cmis::kCreatedBy] == "system");
  CHECK(v.properties[cmis::kLastModifiedBy] == "system");
  CHECK(v.properties[cmis::kCreationDate] == "2025-11-21T19:30:00.123Z");
  CHECK(v.properties[cmis::kLastModificationDate] == "2025-11-21T19:30:01.456Z");
  REQUIRE(v.content);
  CHECK(v.content->length == 48213);
  CHECK(v.content->mime_type == "application/pdf");
  CHECK(v.content->file_name == "scan.pdf");
  CHECK(v.acl.empty());
}

TEST_CASE("Adopted series ids: NewAdoptedSeriesId names its folder, AdoptedFolderOf finds it") {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string id = storage::NewAdoptedSeriesId(kFolder);
    REQUIRE(id.size() == 12 + kFolder.size());
    CHECK(id[0] == 'd');
    CHECK(id[11] == '-');
    for (size_t c = 1; c <= 10; ++c) CHECK(((id[c] >= 'a' && id[c] <= 'z') || (id[c] >= '0' && id[c] <= '9')));
    CHECK(id.substr(12) == kFolder);
    CHECK(storage::AdoptedFolderOf(id) == kFolder);
    // An object id like any other (the index and the API take it as one).
    auto parsed = storage::ParseObjectId(id);
    REQUIRE(parsed);
    CHECK(parsed->base == id);
    seen.insert(id);
  }
  CHECK(seen.size() == 200);
  // The root folder's id, or any folder id, may be the folder part.
  CHECK(storage::AdoptedFolderOf("dabcdefghij-root-folder") == "root-folder");
  for (const std::string& other : std::vector<std::string>{"", "d", "dq81m2k0x9c7b3v5n",           // an ordinary series id
        "dabcdefghij-",                         // no folder
        "dabcdefghij" + kFolder,                // no '-'
        "fabcdefghij-" + kFolder,               // not a document's
        "dabcdeFghij-" + kFolder,               // an upper-case letter in the random part
        "dabc_efghij-" + kFolder,               // nor '_'
        "dabcdefghi-" + kFolder,                // nine characters
        "dabcdefghij-" + kFolder + ";1.0",      // a version's id
        "dabcdefghij-a/b", "dabcdefghij-.hidden"}) {
    CHECK_MESSAGE(!storage::AdoptedFolderOf(other), other);
  }
}

TEST_CASE("AdoptionTableNumber: <n>.json with n >= 1 and no leading zero") {
  CHECK(storage::AdoptionTableNumber("1.json") == 1u);
  CHECK(storage::AdoptionTableNumber("12.json") == 12u);
  CHECK(storage::AdoptionTableNumber("999999999999999999.json") == 999999999999999999u);
  for (const char* bad : {"0.json", "01.json", "00.json", "x.json", ".json", "1", "1.JSON", "1.json.tmp",
                          "-1.json", "+1.json", " 1.json", "1 .json", "1.5.json", "1e3.json",
                          "1000000000000000000.json", ".folio-tmp-1-2-abc", ""}) {
    CHECK_MESSAGE(!storage::AdoptionTableNumber(bad), bad);
  }
  const storage::RepoLayout layout("demo/main");
  CHECK(layout.AdoptedDir() == "demo/main/.folio/adopted");
  CHECK(layout.AdoptedFolderDir(kFolder) == "demo/main/.folio/adopted/" + kFolder);
  CHECK(layout.AdoptionTable(kFolder, 3) == "demo/main/.folio/adopted/" + kFolder + "/3.json");
  CHECK(storage::AdoptionTableNumber(storage::BaseName(layout.AdoptionTable(kFolder, 3))) == 3u);
}

}  // namespace folio::repo::hand_edits
