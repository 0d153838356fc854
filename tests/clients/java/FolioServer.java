// A Folio server for JVM tests: `folio serve` on a throw-away copy of a fixture data
// directory, on a free port, stopped by close(). Copy this class into your tests; it
// needs nothing but the JDK (11+).
//
//   try (FolioServer folio = FolioServer.start("folio", Path.of("src/test/fixture-data"))) {
//     HttpClient.newHttpClient().send(HttpRequest.newBuilder(folio.url().resolve("demo")).build(), ...);
//   }
// In JUnit 5: start it in a static @BeforeAll, close it in @AfterAll.
//
// --ephemeral: the fixture is never written (a copy in $TMPDIR is served and removed).
// --exit-with-parent: if the JVM dies without close(), the server stops too (it follows
// the thread that started it: start it from a thread that lives as long as the tests).
// --faults: a request may ask for its own failure (FAULT_HEADER, docs/API.md §14.4).
//
// Between and during tests (docs/API.md §14): reset() returns the copy to the fixture's
// state (call it in @AfterEach); waitForToken(token) waits until the change a write's
// Folio-Change-Token header names reaches the event stream GET /-/events.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

public final class FolioServer implements AutoCloseable {
  private static final String READY = "folio listening on ";
  private final Process process;
  private final URI url;

  private FolioServer(Process process, URI url) {
    this.process = process;
    this.url = url;
  }

  /** Starts `folio serve` on a copy of `fixture`; returns once it accepts requests. */
  public static FolioServer start(String folio, Path fixture) throws IOException {
    Process process = new ProcessBuilder(folio, "serve", "--port", "0", "--ephemeral", "--exit-with-parent",
        "--faults", "--log-level", "warn", "--data", fixture.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine(); // "folio listening on http://127.0.0.1:PORT/"
    if (line == null || !line.startsWith(READY)) {
      process.destroyForcibly();
      throw new IOException("folio serve did not start: " + (line == null ? "no output" : line));
    }
    return new FolioServer(process, URI.create(line.substring(READY.length()).trim()));
  }

  /** The request header that makes a request fail: "status=503", "delay=200", "truncate=10", "reset". */
  public static final String FAULT_HEADER = "Folio-Fault";

  private final HttpClient http = HttpClient.newHttpClient();

  /** Returns the data directory to the fixture's state (POST /-/reset). */
  public void reset() throws IOException, InterruptedException {
    HttpResponse<String> res = http.send(
        HttpRequest.newBuilder(url.resolve("-/reset")).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() != 200) throw new IOException("reset failed: " + res.statusCode() + " " + res.body());
  }

  /**
   * Waits until the event `token` ("domain/repository/N", a write's Folio-Change-Token header)
   * arrives on GET /-/events; returns its data line (JSON). Throws IOException after `timeout`.
   */
  public String waitForToken(String token, Duration timeout) throws IOException, InterruptedException {
    int slash = token.lastIndexOf('/');
    String since = token.substring(0, slash + 1) + (Long.parseLong(token.substring(slash + 1)) - 1);
    HttpRequest request = HttpRequest.newBuilder(url.resolve("-/events")).header("Last-Event-ID", since)
        .timeout(timeout).build();
    HttpResponse<Stream<String>> res = http.send(request, HttpResponse.BodyHandlers.ofLines());
    if (res.statusCode() != 200) throw new IOException("GET /-/events failed: " + res.statusCode());
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Stream<String> lines = res.body()) {
      String id = null;
      for (java.util.Iterator<String> it = lines.iterator(); it.hasNext() && System.nanoTime() < deadline;) {
        String line = it.next();
        if (line.startsWith("id: ")) id = line.substring(4);
        if (line.startsWith("data: ") && token.equals(id)) return line.substring(6);
        if (line.isEmpty()) id = null;
      }
    }
    throw new IOException("no event " + token + " within " + timeout);
  }

  /** http://127.0.0.1:PORT/; url().resolve("DOMAIN") is a CMIS service URL. */
  public URI url() {
    return url;
  }

  /** Stops the server (SIGTERM: requests in flight finish, the copy is removed); its exit status. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  public int exitValue() {
    return process.exitValue();
  }
}
