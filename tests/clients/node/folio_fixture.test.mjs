// The node:test recipe of the README, run by ctest (tests/clients/node/run.sh): a suite
// that starts Folio on the sample data with folio_fixture.mjs and uses it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startFolio } from './folio_fixture.mjs';

const fixture = process.env.FOLIO_FIXTURE; // the sample data (run.sh sets it)
let folio;
before(async () => { folio = await startFolio(fixture); });
after(async () => { assert.equal(await folio.stop(), 0, 'folio serve stops cleanly'); });

test('the fixture is served: the demo domain lists its repositories', async () => {
  const res = await fetch(folio.url + 'demo');
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(await res.json()).sort(), ['cmis', 'plain']);
});

test('a document of the fixture reads back', async () => {
  const res = await fetch(folio.url + 'demo/cmis/README.md');
  assert.equal(res.status, 200);
  assert.match(await res.text(), /^# Welcome to Folio/);
});

test('writes go to the copy, never to the fixture', async () => {
  const body = new URLSearchParams({ operation: 'createDocument', name: 'from-node.txt', content: 'hello from node' });
  const made = await fetch(folio.url + 'demo/plain', { method: 'POST', body });
  assert.equal(made.status, 201);
  assert.equal(await (await fetch(folio.url + 'demo/plain/from-node.txt')).text(), 'hello from node');
  assert.throws(() => readFileSync(`${fixture}/demo/plain/from-node.txt`), { code: 'ENOENT' });
});

test('errors are JSON with the CMIS exception name', async () => {
  const res = await fetch(folio.url + 'demo/plain/no-such-file.txt');
  assert.equal(res.status, 404);
  assert.equal((await res.json()).exception, 'objectNotFound');
});
