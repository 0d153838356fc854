// What a newcomer types with curl, and what it must do: an upload named after its file,
// `name` as a plain field, text `content` in JSON, an update that changes nothing,
// `versionLabel` for an old version, folder paths for move. Each case is a trap the
// README's walkthrough met once.
#include "folio/fsck.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string Error(const httplib::Result& r) {
  REQUIRE(r);
  return BodyJson(r).value("exception", "") + ": " + BodyJson(r).value("message", "");
}

// The findings of fsck on the fixture's data, one per line ("" when clean): nothing
// refused or consumed leaves an upload behind.
std::string FsckFindings(ServerFixture& f) {
  auto report = RunFsck(f.dir(), FsckOptions{});
  REQUIRE(report.ok());
  std::string findings;
  for (const Finding& finding : report->findings) findings += finding.id + " " + finding.path + "\n";
  return findings;
}

size_t ChildCount(httplib::Client& c, const std::string& folder) {
  return BodyJson(c.Get((folder + "?succinct=true").c_str()))["objects"].size();
}

struct Repo {
  std::string path;    // "/demo/alpha"
  std::string prefix;  // "" (variant A) or "cmis:"
};
const Repo kRepos[] = {{"/demo/alpha", ""}, {"/demo/beta", "cmis:"}};

TEST_CASE("Http newcomer: an upload without a name is named after its file; name is a plain field too") {
  ServerFixture f;
  auto c = f.Client();
  for (const Repo& r : kRepos) {
    CAPTURE(r.path);
    const std::string docs = r.path + "/docs";
    // curl -F content=@q3.txt -F operation=createDocument .../docs
    httplib::MultipartFormDataItems upload = {{"content", "Q3 figures", "q3.txt", "text/plain"},
                                              {"operation", "createDocument", "", ""},
                                              {"succinct", "true", "", ""}};
    auto made = c.Post(docs.c_str(), upload);
    REQUIRE(made);
    CHECK(made->status == 201);
    CHECK(BodyJson(made)["succinctProperties"][r.prefix + "name"] == "q3.txt");
    CHECK(c.Get((docs + "/q3.txt").c_str())->body == "Q3 figures");
    // -F name=... and -F cmis:name=... name it, whatever the file is called.
    for (const std::string field : {"name", "cmis:name"}) {
      CAPTURE(field);
      httplib::MultipartFormDataItems named = {{"content", "x", "upload.bin", "text/plain"},
                                               {"operation", "createDocument", "", ""},
                                               {field, "named-by-" + std::to_string(field.size()) + ".txt", "", ""},
                                               {"succinct", "true", "", ""}};
      auto n = c.Post(docs.c_str(), named);
      CHECK(n->status == 201);
      CHECK(Contains(BodyJson(n)["succinctProperties"][r.prefix + "name"].get<std::string>(), "named-"));
    }
    // Urlencoded and JSON bodies: name as a plain field makes a folder.
    auto folder = c.Post(docs.c_str(), "operation=createFolder&name=reports", "application/x-www-form-urlencoded");
    CHECK(folder->status == 201);
    auto json_folder =
        c.Post(docs.c_str(), R"({"operation":"createFolder","name":"drafts"})", "application/json");
    CHECK(json_folder->status == 201);
    // The field and the property disagreeing is refused, naming both.
    auto both = c.Post(docs.c_str(), R"({"operation":"createFolder","name":"a","properties":{"cmis:name":"b"}})",
                       "application/json");
    CHECK(both->status == 400);
    CHECK(Contains(Error(both), "'name' (\"a\")"));
    CHECK(Contains(Error(both), "'cmis:name' (\"b\")"));
    // No name and no file name: the message says how to give one.
    httplib::MultipartFormDataItems nameless = {{"content", "x", "", "text/plain"},
                                                {"operation", "createDocument", "", ""}};
    auto missing = c.Post(docs.c_str(), nameless);
    CHECK(missing->status == 400);
    const std::string message = Error(missing);
    CHECK(Contains(message, "invalidArgument: missing required property '" + r.prefix + "name'"));
    CHECK(Contains(message, "the field 'name'"));
    CHECK(Contains(message, "propertyId[N]"));
    auto no_folder_name = c.Post(docs.c_str(), "operation=createFolder", "application/x-www-form-urlencoded");
    CHECK(no_folder_name->status == 400);
    CHECK(Contains(Error(no_folder_name), "the field 'name'"));
  }
  CHECK(FsckFindings(f) == "");
}

TEST_CASE("Http newcomer: a string content in JSON or a form is the document's text; other JSON is refused") {
  ServerFixture f;
  auto c = f.Client();
  for (const Repo& r : kRepos) {
    CAPTURE(r.path);
    const std::string docs = r.path + "/docs";
    auto made = c.Post(docs.c_str(), R"({"operation":"createDocument","name":"hello.txt","content":"hello world"})",
                       "application/json");
    CHECK(made->status == 201);
    auto got = c.Get((docs + "/hello.txt").c_str());
    CHECK(got->body == "hello world");
    CHECK(got->get_header_value("Content-Type") == "text/plain");  // from the name
    // mimeType sets the type; UTF-8 text stays as sent.
    auto typed = c.Post(
        docs.c_str(),
        R"({"operation":"createDocument","name":"data","mimeType":"application/json","content":"{\"größe\": 1}"})",
        "application/json");
    CHECK(typed->status == 201);
    auto data = c.Get((docs + "/data").c_str());
    CHECK(data->body == "{\"größe\": 1}");
    CHECK(data->get_header_value("Content-Type") == "application/json");
    // A form field `content` is text as well.
    auto form = c.Post(docs.c_str(), "operation=createDocument&name=form.txt&content=from+a+form",
                       "application/x-www-form-urlencoded");
    CHECK(form->status == 201);
    CHECK(c.Get((docs + "/form.txt").c_str())->body == "from a form");
    // setContent, appendContent and checkIn take it too.
    CHECK(c.Post((docs + "/hello.txt").c_str(), R"({"operation":"setContent","content":"replaced"})",
                 "application/json")
              ->status == 201);
    CHECK(c.Post((docs + "/hello.txt").c_str(), R"({"operation":"appendContent","content":", appended"})",
                 "application/json")
              ->status == 201);
    CHECK(c.Get((docs + "/hello.txt").c_str())->body == "replaced, appended");
    CHECK(c.Post((docs + "/hello.txt").c_str(), "operation=checkOut", "application/x-www-form-urlencoded")->status ==
          201);
    auto in = c.Post((docs + "/hello.txt").c_str(), R"({"operation":"checkIn","content":"version two"})",
                     "application/json");
    CHECK(in->status == 201);
    CHECK(c.Get((docs + "/hello.txt").c_str())->body == "version two");
    // Content that is not text is refused, and nothing is created.
    const size_t before = ChildCount(c, docs);
    for (const char* body : {R"({"operation":"createDocument","name":"bad.txt","content":{"a":1}})",
                             R"({"operation":"createDocument","name":"bad.txt","content":42})",
                             R"({"operation":"createDocument","name":"bad.txt","content":["x"]})"}) {
      CAPTURE(body);
      auto bad = c.Post(docs.c_str(), body, "application/json");
      CHECK(bad->status == 400);
      CHECK(Contains(Error(bad), "invalidArgument: parameter 'content' must be a string"));
    }
    CHECK(ChildCount(c, docs) == before);
    // A refused create with text content (taken name) leaves nothing behind either.
    auto taken = c.Post(docs.c_str(), R"({"operation":"createDocument","name":"hello.txt","content":"again"})",
                        "application/json");
    CHECK(taken->status == 409);
  }
  CHECK(FsckFindings(f) == "");
}

TEST_CASE("Http newcomer: update takes a plain name; an update that changes nothing changes nothing") {
  ServerFixture f;
  auto c = f.Client();
  for (const Repo& r : kRepos) {
    CAPTURE(r.path);
    const std::string docs = r.path + "/docs";
    auto before = BodyJson(c.Get((docs + "/readme.txt?operation=object&succinct=true").c_str()))["succinctProperties"];
    // -d name=... renames.
    auto renamed = c.Post((docs + "/readme.txt").c_str(), "operation=update&name=intro.txt&succinct=true",
                          "application/x-www-form-urlencoded");
    REQUIRE(renamed->status == 200);
    auto after = BodyJson(renamed)["succinctProperties"];
    CHECK(after[r.prefix + "name"] == "intro.txt");
    CHECK(c.Get((docs + "/intro.txt").c_str())->body == "hello");
    CHECK(c.Get((docs + "/readme.txt").c_str())->status == 404);
    // The same name again, the same description: nothing changes, not even the date.
    for (const char* body : {"operation=update&name=intro.txt&succinct=true",
                             "operation=update&cmis:name=intro.txt&succinct=true",
                             "operation=update&propertyId[0]=cmis:name&propertyValue[0]=intro.txt&succinct=true",
                             "operation=update&propertyId[0]=cmis:description&propertyValue[0]=&succinct=true"}) {
      CAPTURE(body);
      auto same = c.Post((docs + "/intro.txt").c_str(), body, "application/x-www-form-urlencoded");
      REQUIRE(same->status == 200);
      auto unchanged = BodyJson(same)["succinctProperties"];
      CHECK(unchanged[r.prefix + "lastModificationDate"] == after[r.prefix + "lastModificationDate"]);
      CHECK(unchanged[r.prefix + "changeToken"] == after[r.prefix + "changeToken"]);
    }
    CHECK(after[r.prefix + "creationDate"] == before[r.prefix + "creationDate"]);
    // A description set twice changes once.
    auto described = BodyJson(c.Post((docs + "/intro.txt").c_str(),
                                     R"({"operation":"update","succinct":true,"properties":{"description":"d"}})",
                                     "application/json"))["succinctProperties"];
    CHECK(described[r.prefix + "description"] == "d");
    auto again = BodyJson(c.Post((docs + "/intro.txt").c_str(),
                                 R"({"operation":"update","succinct":true,"properties":{"description":"d"}})",
                                 "application/json"))["succinctProperties"];
    CHECK(again[r.prefix + "changeToken"] == described[r.prefix + "changeToken"]);
    // No properties at all (a field the server does not know) is refused, naming the
    // accepted spellings, and changes nothing.
    auto nothing = c.Post((docs + "/intro.txt").c_str(), "operation=update&title=x&succinct=true",
                          "application/x-www-form-urlencoded");
    CHECK(nothing->status == 400);
    const std::string message = Error(nothing);
    CHECK(Contains(message, "invalidArgument: missing required parameter 'properties'"));
    CHECK(Contains(message, "the field 'name' (or 'cmis:name')"));
    auto last = BodyJson(c.Get((docs + "/intro.txt?operation=object&succinct=true").c_str()))["succinctProperties"];
    CHECK(last[r.prefix + "changeToken"] == described[r.prefix + "changeToken"]);
    // Folders too.
    auto folder = c.Post(docs.c_str(), "operation=update&name=docs&succinct=true", "application/x-www-form-urlencoded");
    CHECK(folder->status == 200);
  }
}

TEST_CASE("Http newcomer: versionLabel serves that version's content and object; an unknown label is objectNotFound") {
  ServerFixture f;
  auto c = f.Client();
  for (const Repo& r : kRepos) {
    CAPTURE(r.path);
    const std::string doc = r.path + "/docs/readme.txt";
    REQUIRE(c.Post(doc.c_str(), "operation=checkOut", "application/x-www-form-urlencoded")->status == 201);
    REQUIRE(c.Post(doc.c_str(), R"({"operation":"checkIn","content":"second"})", "application/json")->status == 201);
    auto out = c.Post(doc.c_str(), "operation=checkOut&succinct=true", "application/x-www-form-urlencoded");
    REQUIRE(out->status == 201);
    const std::string pwc = BodyJson(out)["succinctProperties"][r.prefix + "objectId"];
    REQUIRE(c.Post(r.path.c_str(), R"({"operation":"setContent","content":"working","objectId":")" + pwc + R"("})",
                   "application/json")
                ->status == 201);
    CHECK(c.Get(doc.c_str())->body == "second");
    CHECK(c.Get((doc + "?versionLabel=1.0").c_str())->body == "hello");
    CHECK(c.Get((doc + "?versionLabel=2.0").c_str())->body == "second");
    CHECK(c.Get((doc + "?versionLabel=pwc").c_str())->body == "working");
    CHECK(c.Get((doc + "?operation=content&versionLabel=1.0").c_str())->body == "hello");
    auto old = BodyJson(c.Get((doc + "?operation=object&versionLabel=1.0&succinct=true").c_str()));
    CHECK(old["succinctProperties"][r.prefix + "versionLabel"] == "1.0");
    CHECK(old["succinctProperties"][r.prefix + "isLatestVersion"] == false);
    auto props = BodyJson(c.Get((doc + "?operation=properties&versionLabel=1.0&succinct=true").c_str()));
    CHECK(props[r.prefix + "versionLabel"] == "1.0");
    // By objectId of another version of the series as well.
    const std::string first_id = old["succinctProperties"][r.prefix + "objectId"];
    auto by_id = c.Get((r.path + "?objectId=" + first_id + "&versionLabel=2.0").c_str());
    CHECK(by_id->body == "second");

    auto missing = c.Get((doc + "?versionLabel=7.0").c_str());
    CHECK(missing->status == 404);
    CHECK(Error(missing) == "objectNotFound: document '/docs/readme.txt' has no version '7.0'");
    auto odd = c.Get((doc + "?versionLabel=..%2Fx").c_str());
    CHECK(odd->status == 404);
    CHECK(Contains(Error(odd), "no version '../x'"));
    auto folder = c.Get((r.path + "/docs?operation=object&versionLabel=1.0").c_str());
    CHECK(folder->status == 400);
    CHECK(Contains(Error(folder), "parameter 'versionLabel'"));
    CHECK(Contains(Error(folder), "'/docs' is a " + r.prefix + "folder"));
    auto both = c.Get((doc + "?versionLabel=1.0&returnVersion=latest").c_str());
    CHECK(both->status == 400);
    CHECK(Contains(Error(both), "'versionLabel' and 'returnVersion'"));
  }
}

TEST_CASE("Http newcomer: move takes folder paths for targetFolderId and sourceFolderId") {
  ServerFixture f;
  auto c = f.Client();
  for (const Repo& r : kRepos) {
    CAPTURE(r.path);
    REQUIRE(c.Post(r.path.c_str(), "operation=createFolder&name=archive", "application/x-www-form-urlencoded")
                ->status == 201);
    auto moved = c.Post((r.path + "/docs/readme.txt").c_str(),
                        "operation=move&targetFolderId=/archive&sourceFolderId=/docs/",
                        "application/x-www-form-urlencoded");
    CHECK(moved->status == 201);
    CHECK(c.Get((r.path + "/archive/readme.txt").c_str())->body == "hello");
    auto to_root = c.Post((r.path + "/archive/readme.txt").c_str(), "operation=move&targetFolderId=/",
                          "application/x-www-form-urlencoded");
    CHECK(to_root->status == 201);
    CHECK(c.Get((r.path + "/readme.txt").c_str())->body == "hello");
    auto nowhere = c.Post((r.path + "/readme.txt").c_str(), "operation=move&targetFolderId=/nowhere",
                          "application/x-www-form-urlencoded");
    CHECK(nowhere->status == 404);
    CHECK(Contains(Error(nowhere), "/nowhere"));
    auto wrong_source = c.Post((r.path + "/readme.txt").c_str(),
                               "operation=move&targetFolderId=/archive&sourceFolderId=/docs",
                               "application/x-www-form-urlencoded");
    CHECK(wrong_source->status == 400);
  }
}

}  // namespace
}  // namespace folio::testing
