// A Folio server for a node:test suite: `folio serve` on a throw-away copy of a fixture
// data directory, on a free port, stopped after the tests. Copy this file into your
// tests; it needs nothing but Node (>= 18).
//
//   import { startFolio } from './folio_fixture.mjs';
//   let folio;
//   before(async () => { folio = await startFolio('tests/fixture-data'); });
//   after(() => folio.stop());
//   test('...', async () => { await fetch(folio.url + 'demo'); });
//   afterEach(() => folio.reset());   // each test starts from the fixture's state
//
// Between and during tests (docs/API.md §14): reset() returns the copy to the fixture's
// state; fault('status=503') is the header that makes one request fail (the server runs
// with --faults); waitForToken(token) waits until the change a write's
// Folio-Change-Token header names has reached the event stream GET /-/events.
//
// --ephemeral: the fixture is never written (a copy in $TMPDIR is served and removed).
// --exit-with-parent: if the test process dies without stop(), the server stops too.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

// Starts `folio serve`; resolves to { url, stop } once it prints its ready line.
// `folio` is the program (default: $FOLIO, else `folio` on the PATH).
export async function startFolio(fixture, { folio = process.env.FOLIO || 'folio', args = [] } = {}) {
  const child = spawn(folio, ['serve', '--port', '0', '--ephemeral', '--exit-with-parent', '--faults',
                              '--log-level', 'warn', '--data', fixture, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject); // e.g. ENOENT: no folio on the PATH
    child.once('exit', (code) => reject(new Error(`folio serve exited with status ${code} before it was ready`)));
    lines.once('line', (line) => {
      const ready = /^folio listening on (http:\/\/\S+)$/.exec(line);
      if (ready) resolve(ready[1]);
      else reject(new Error(`folio serve printed ${JSON.stringify(line)} instead of its ready line`));
    });
  });
  child.removeAllListeners('exit');
  return {
    url, // "http://127.0.0.1:PORT/"; url + DOMAIN is a CMIS service URL
    // Returns the data directory to the fixture's state (POST /-/reset).
    async reset() {
      const res = await fetch(url + '-/reset', { method: 'POST' });
      if (res.status !== 200) throw new Error(`reset failed: ${res.status} ${await res.text()}`);
    },
    // Headers that make a request fail as `spec` says: 'status=503', 'delay=200',
    // 'truncate=10', 'reset', or several joined by ';'.
    fault(spec) { return { 'Folio-Fault': spec }; },
    // Resolves once the event `token` ("domain/repository/N", a write's Folio-Change-Token)
    // arrives on GET /-/events, with that event's data; rejects after `timeoutMs`.
    async waitForToken(token, timeoutMs = 10000) {
      const n = Number(token.slice(token.lastIndexOf('/') + 1));
      const since = token.slice(0, token.lastIndexOf('/') + 1) + (n - 1); // the stream resumes after it
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        const res = await fetch(url + '-/events', { headers: { 'Last-Event-ID': since }, signal: abort.signal });
        if (res.status !== 200) throw new Error(`GET /-/events failed: ${res.status} ${await res.text()}`);
        const decoder = new TextDecoder();
        let text = '';
        for await (const bytes of res.body) {
          text += decoder.decode(bytes, { stream: true });
          for (let end; (end = text.indexOf('\n\n')) >= 0; text = text.slice(end + 2)) {
            const fields = Object.fromEntries(text.slice(0, end).split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
            if (fields.id === token) return JSON.parse(fields.data);
          }
        }
        throw new Error('the event stream ended before ' + token);
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM'); // a clean stop: requests in flight finish, the copy is removed
      const [code] = await exited;
      return code;
    },
  };
}
