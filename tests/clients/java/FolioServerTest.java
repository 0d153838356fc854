// The JVM recipe of the README, run by ctest (tests/clients/java/run.sh) as a plain
// program (no test framework needed): FolioServer on the sample data, used and closed.
//   java FolioServerTest FOLIO_BINARY FIXTURE_DIR
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

public final class FolioServerTest {
  private static int failures = 0;
  private static int passed = 0;

  private static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (ok) passed++; else failures++;
  }

  public static void main(String[] args) throws Exception {
    Path fixture = Path.of(args[1]);
    HttpClient http = HttpClient.newHttpClient();
    FolioServer stopped;
    try (FolioServer folio = FolioServer.start(args[0], fixture)) {
      stopped = folio;
      URI url = folio.url();
      check(url.toString().matches("http://127\\.0\\.0\\.1:\\d+/"), "the URL comes from the ready line: " + url);

      HttpResponse<String> repos = http.send(HttpRequest.newBuilder(url.resolve("demo")).build(),
          HttpResponse.BodyHandlers.ofString());
      check(repos.statusCode() == 200 && repos.body().contains("\"repositoryId\":\"plain\""),
          "the demo domain lists its repositories");

      HttpResponse<String> readme = http.send(HttpRequest.newBuilder(url.resolve("demo/cmis/README.md")).build(),
          HttpResponse.BodyHandlers.ofString());
      check(readme.body().startsWith("# Welcome to Folio"), "a fixture document reads back");

      HttpResponse<String> made = http.send(HttpRequest.newBuilder(url.resolve("demo/plain"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(
                  "{\"operation\":\"createDocument\",\"name\":\"from-java.txt\",\"content\":\"hello from java\"}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      check(made.statusCode() == 201, "a document is created: " + made.statusCode());
      HttpResponse<String> back = http.send(HttpRequest.newBuilder(url.resolve("demo/plain/from-java.txt")).build(),
          HttpResponse.BodyHandlers.ofString());
      check(back.body().equals("hello from java"), "and reads back");
      check(!Files.exists(fixture.resolve("demo/plain/from-java.txt")), "the fixture is never written");

      HttpResponse<String> missing = http.send(HttpRequest.newBuilder(url.resolve("demo/plain/nope.txt")).build(),
          HttpResponse.BodyHandlers.ofString());
      check(missing.statusCode() == 404 && missing.body().contains("\"exception\":\"objectNotFound\""),
          "errors are JSON with the CMIS exception name");

      // Waiting on an event: the change a write names reaches GET /-/events.
      HttpResponse<String> evented = http.send(HttpRequest.newBuilder(url.resolve("demo/plain"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(
                  "{\"operation\":\"createDocument\",\"name\":\"evented.txt\",\"content\":\"x\"}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      String token = evented.headers().firstValue("Folio-Change-Token").orElse("");
      check(token.matches("demo/plain/\\d+"), "a write names its change: " + token);
      String event = folio.waitForToken(token, Duration.ofSeconds(10));
      check(event.contains("\"changeType\":\"created\""), "and the event stream has it: " + event);

      // A reset between tests: what the test before wrote is gone.
      folio.reset();
      HttpResponse<String> gone = http.send(HttpRequest.newBuilder(url.resolve("demo/plain/from-java.txt")).build(),
          HttpResponse.BodyHandlers.ofString());
      check(gone.statusCode() == 404, "a reset removes what tests wrote: " + gone.statusCode());

      // An injected fault: the request fails as asked, and changes nothing.
      HttpResponse<String> faulty = http.send(HttpRequest.newBuilder(url.resolve("demo/plain"))
              .header("Content-Type", "application/json")
              .header(FolioServer.FAULT_HEADER, "status=503")
              .POST(HttpRequest.BodyPublishers.ofString(
                  "{\"operation\":\"createDocument\",\"name\":\"faulty.txt\",\"content\":\"x\"}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      check(faulty.statusCode() == 503 && faulty.body().contains("\"exception\":\"runtime\""),
          "an injected fault answers as asked: " + faulty.statusCode());
      HttpResponse<String> notMade = http.send(HttpRequest.newBuilder(url.resolve("demo/plain/faulty.txt")).build(),
          HttpResponse.BodyHandlers.ofString());
      check(notMade.statusCode() == 404, "and changes nothing");
    }
    check(stopped.exitValue() == 0, "close() stops it cleanly");
    System.out.println(passed + " passed, " + failures + " failed");
    System.exit(failures == 0 ? 0 : 1);
  }
}
