// The node:test recipe of the README, run by ctest (tests/clients/node/run.sh): a suite
// that starts Folio on the sample data with folio_fixture.mjs and uses it.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startFolio } from './folio_fixture.mjs';

const fixture = process.env.FOLIO_FIXTURE; // the sample data (run.sh sets it)
let folio;
before(async () => { folio = await startFolio(fixture); });
after(async () => { assert.equal(await folio.stop(), 0, 'folio serve stops cleanly'); });
afterEach(() => folio.reset()); // each test starts from the fixture's state

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

test('a reset between tests: what the test before wrote is gone', async () => {
  const res = await fetch(folio.url + 'demo/plain/from-node.txt');
  assert.equal(res.status, 404);
});

test('an injected fault: the request fails as asked and changes nothing', async () => {
  const body = new URLSearchParams({ operation: 'createDocument', name: 'faulty.txt', content: 'x' });
  const res = await fetch(folio.url + 'demo/plain', { method: 'POST', body, headers: folio.fault('status=503') });
  assert.equal(res.status, 503);
  assert.equal((await res.json()).exception, 'runtime');
  assert.equal((await fetch(folio.url + 'demo/plain/faulty.txt')).status, 404);
});

test('waiting on an event: the change a write names reaches the event stream', async () => {
  const body = new URLSearchParams({ operation: 'createDocument', name: 'evented.txt', content: 'x' });
  const made = await fetch(folio.url + 'demo/plain', { method: 'POST', body });
  assert.equal(made.status, 201);
  const token = made.headers.get('Folio-Change-Token');
  assert.match(token, /^demo\/plain\/\d+$/);
  const event = await folio.waitForToken(token);
  assert.equal(event.changeEventInfo.changeType, 'created');
  assert.equal(event.succinctProperties.objectId, (await made.json()).succinctProperties.objectId);
});
