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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
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
        "--log-level", "warn", "--data", fixture.toString())
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
