// A Folio server for a node:test suite: `folio serve` on a throw-away copy of a fixture
// data directory, on a free port, stopped after the tests. Copy this file into your
// tests; it needs nothing but Node (>= 18).
//
//   import { startFolio } from './folio_fixture.mjs';
//   let folio;
//   before(async () => { folio = await startFolio('tests/fixture-data'); });
//   after(() => folio.stop());
//   test('...', async () => { await fetch(folio.url + 'demo'); });
//
// --ephemeral: the fixture is never written (a copy in $TMPDIR is served and removed).
// --exit-with-parent: if the test process dies without stop(), the server stops too.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

// Starts `folio serve`; resolves to { url, stop } once it prints its ready line.
// `folio` is the program (default: $FOLIO, else `folio` on the PATH).
export async function startFolio(fixture, { folio = process.env.FOLIO || 'folio', args = [] } = {}) {
  const child = spawn(folio, ['serve', '--port', '0', '--ephemeral', '--exit-with-parent', '--log-level', 'warn',
                              '--data', fixture, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM'); // a clean stop: requests in flight finish, the copy is removed
      const [code] = await exited;
      return code;
    },
  };
}
