#!/usr/bin/env node
// End-to-end test of Folio with CmisJS (npm `cmis`), a standard CMIS 1.1 Browser Binding
// client. It starts nothing: run.sh starts `folio serve` on the sample data and passes the
// server URL. Usage:
//
//   node cmisjs_test.js http://127.0.0.1:PORT/ [--keep-going] [--variant A|B] [--verbose]
//
// Each variant of the sample data is exercised the way a CmisJS user would: variant A is
// repository demo/plain (unprefixed property ids), variant B is demo/cmis (cmis: ids).
// Then a domain with users, made for the run, through setCredentials (HTTP Basic).
// One line per step; the first failure stops the run (exit 1) and prints the request
// CmisJS made and the response it got. --keep-going runs every step and reports all
// failures at the end (for diagnosis).
'use strict';

const assert = require('node:assert/strict');

// --- CmisJS under Node >= 18 -------------------------------------------------------------
// CmisJS 1.0.3 loads `isomorphic-form-data`, which under Node unconditionally replaces the
// global FormData with the `form-data` 1.x stream package, and it captures the global Buffer
// at load time to turn non-string content into a Buffer. With Node 20's built-in fetch
// (cross-fetch's polyfill only installs node-fetch when there is no global fetch) neither
// works: a string turned into a Blob and appended to a `form-data` object fails inside the
// client with "source.on is not a function", and a Blob turned into a Buffer cannot be
// appended to the native FormData. These are CmisJS quirks, not server behaviour, so we
// work around them: keep Node's native FormData, and hide Buffer while CmisJS loads so
// string and Blob content reach the native FormData as Blobs (what a browser does).
const nativeFormData = globalThis.FormData;
const savedBuffer = globalThis.Buffer;
let cmis;
try {
  globalThis.Buffer = undefined;
  cmis = require('cmis');
} finally {
  globalThis.Buffer = savedBuffer;
  globalThis.FormData = nativeFormData;
}

// --- arguments ---------------------------------------------------------------------------
const args = process.argv.slice(2);
const keepGoing = args.includes('--keep-going');
const verbose = args.includes('--verbose');
const variantArg = args.includes('--variant') ? args[args.indexOf('--variant') + 1] : null;
const base = args.find((a) => /^https?:\/\//.test(a));
if (!base) {
  console.error('usage: node cmisjs_test.js http://HOST:PORT/ [--keep-going] [--variant A|B] [--verbose]');
  process.exit(2);
}
const serviceUrl = base.replace(/\/+$/, '') + '/demo';

// --- request capture (wraps the global fetch CmisJS calls) ---------------------------------
let exchanges = [];
const realFetch = globalThis.fetch;
function describeBody(body) {
  if (body == null) return '';
  if (typeof body === 'string') return decodeURIComponent(body.replace(/\+/g, ' ')).split('&').join('  ');
  if (body instanceof nativeFormData) {
    const out = [];
    for (const [k, v] of body.entries()) {
      if (typeof v === 'string') out.push(`${k}=${v}`);
      else out.push(`${k}=<file name=${JSON.stringify(v.name)} type=${JSON.stringify(v.type)} size=${v.size}>`);
    }
    return '[multipart] ' + out.join('  ');
  }
  return String(body);
}
globalThis.fetch = async (url, cfg = {}) => {
  const ex = { method: cfg.method || 'GET', url: String(url), body: describeBody(cfg.body) };
  exchanges.push(ex);
  const res = await realFetch(url, cfg);
  ex.status = res.status;
  ex.contentType = res.headers.get('content-type');
  try {
    const text = await res.clone().text();
    ex.response = text.length > 1500 ? text.slice(0, 1500) + ` ... (${text.length} chars)` : text;
  } catch (e) {
    ex.response = `<unreadable: ${e.message}>`;
  }
  if (verbose) console.log(`    ${ex.method} ${ex.url} ${ex.body} -> ${ex.status}`);
  return res;
};
function printExchanges() {
  if (exchanges.length === 0) {
    console.log('    (no HTTP request was made)');
    return;
  }
  for (const ex of exchanges) {
    console.log(`    request : ${ex.method} ${ex.url}`);
    if (ex.body) console.log(`    body    : ${ex.body}`);
    console.log(`    response: ${ex.status ?? '(none)'} ${ex.contentType ?? ''}`);
    if (ex.response !== undefined) console.log(`    ${ex.response}`);
  }
}

// --- helpers -----------------------------------------------------------------------------
// Variant A answers with unprefixed ids (name, objectId, document); variant B with cmis: ids.
function makeVariant(letter) {
  const prefix = letter === 'A' ? '' : 'cmis:';
  return {
    letter,
    repoId: letter === 'A' ? 'plain' : 'cmis',
    id: (name) => prefix + name, // property or built-in type id as the server spells it
  };
}

function props(obj, what = 'object') {
  assert.ok(obj && typeof obj === 'object', `${what}: expected a JSON object, got ${JSON.stringify(obj)}`);
  assert.ok(obj.succinctProperties && typeof obj.succinctProperties === 'object',
    `${what}: expected succinctProperties (CmisJS sends succinct=true), got keys ${JSON.stringify(Object.keys(obj))}`);
  return obj.succinctProperties;
}

async function expectHttpError(promise, status, exception, what) {
  let err;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  assert.ok(err, `${what}: expected the call to reject with HTTP ${status}, it succeeded`);
  // CmisJS is compiled to ES5, where `instanceof cmis.HTTPError` is false for its own
  // errors (subclassing Error); its own tests read err.response, so do we.
  assert.ok(err.response && typeof err.response.status === 'number',
    `${what}: expected a cmis.HTTPError with a response, got ${err && err.stack}`);
  assert.equal(err.response.status, status, `${what}: HTTP status`);
  const body = await err.response.json();
  assert.equal(body.exception, exception, `${what}: exception in ${JSON.stringify(body)}`);
  assert.equal(typeof body.message, 'string', `${what}: message in ${JSON.stringify(body)}`);
  return body;
}

const failures = [];
let stepCount = 0;
async function step(variant, name, fn) {
  exchanges = [];
  stepCount++;
  const label = `[${variant.letter} ${variant.repoId}] ${name}`;
  try {
    await fn();
    console.log(`ok   ${label}`);
    return true;
  } catch (e) {
    console.log(`FAIL ${label}`);
    const msg = e && e.response && typeof e.response.status === 'number'
      ? `CmisJS rejected: HTTP ${e.response.status} ${e.response.statusText} (see the last response below)`
      : (e && e.message ? e.message : String(e));
    console.log(`    ${msg.split('\n').join('\n    ')}`);
    printExchanges();
    failures.push(label);
    if (!keepGoing) {
      console.log(`\nFAILED at "${label}" (${stepCount} steps run)`);
      process.exit(1);
    }
    return false;
  }
}

// --- the scenario, once per variant --------------------------------------------------------
async function runVariant(letter) {
  const V = makeVariant(letter);
  const P = V.id;
  const session = new cmis.CmisSession(serviceUrl);
  const s = {}; // state shared between steps
  const stamp = `${Date.now().toString(36)}-${letter}`;
  const text1 = 'Hello from CmisJS \u2014 gr\u00fc\u00dfe, \u65e5\u672c\n';
  const text2 = 'second major version\n';
  const text3 = 'a minor change on top of 2.0\n';
  const pngBytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 0xff, 0xfe, 0x00, 0x80]);

  await step(V, 'loadRepositories', async () => {
    await session.loadRepositories();
    assert.ok(session.repositories, 'repositories loaded');
    assert.deepEqual(Object.keys(session.repositories).sort(), ['cmis', 'plain'], 'repository ids in the service document');
    // CmisJS takes the first key as its default repository; pick ours explicitly.
    session.defaultRepository = session.repositories[V.repoId];
    const r = session.defaultRepository;
    assert.equal(r.repositoryId, V.repoId);
    assert.match(r.repositoryUrl, new RegExp(`/demo/${V.repoId}$`), 'repositoryUrl');
    assert.match(r.rootFolderUrl, new RegExp(`/demo/${V.repoId}$`), 'rootFolderUrl');
    assert.ok(r.rootFolderId, 'rootFolderId');
  });

  await step(V, 'getRepositoryInfo', async () => {
    const info = await session.getRepositoryInfo();
    assert.ok(info[V.repoId], `map keyed by repository id, got keys ${Object.keys(info)}`);
    assert.equal(info[V.repoId].repositoryId, V.repoId);
    assert.ok(parseFloat(info[V.repoId].cmisVersionSupported) >= 1.1, 'cmisVersionSupported');
    assert.equal(info[V.repoId].rootFolderId, session.defaultRepository.rootFolderId);
    s.rootId = info[V.repoId].rootFolderId;
  });

  await step(V, 'getObjectByPath / (root folder)', async () => {
    const root = props(await session.getObjectByPath('/'));
    assert.equal(root[P('objectId')], s.rootId);
    assert.equal(root[P('baseTypeId')], P('folder'));
    assert.equal(root[P('path')], '/');
  });

  await step(V, 'getObjectByPath /Projects/Apollo/mission-plan.md', async () => {
    const doc = props(await session.getObjectByPath('/Projects/Apollo/mission-plan.md'));
    assert.equal(doc[P('name')], 'mission-plan.md');
    assert.equal(doc[P('baseTypeId')], P('document'));
    assert.equal(doc[P('versionLabel')], '2.1');
    assert.equal(doc[P('isLatestVersion')], true);
    assert.equal(doc[P('contentStreamMimeType')], 'text/markdown');
    s.planId = doc[P('objectId')];
    s.planSeries = doc[P('versionSeriesId')];
  });

  await step(V, 'getChildren of the root folder', async () => {
    const list = await session.getChildren(s.rootId, { includePathSegment: true });
    assert.ok(Array.isArray(list.objects), 'objects array');
    assert.equal(list.hasMoreItems, false);
    assert.equal(list.numItems, list.objects.length);
    const names = list.objects.map((o) => props(o.object, 'child')[P('name')]).sort();
    assert.deepEqual(names, ['Inbox', 'Projects', 'README.md', 'Reports']);
    for (const o of list.objects) assert.equal(o.pathSegment, o.object.succinctProperties[P('name')], 'pathSegment');
    const readme = list.objects.find((o) => o.object.succinctProperties[P('name')] === 'README.md');
    s.readmeId = readme.object.succinctProperties[P('objectId')];
  });

  await step(V, 'getChildren with maxItems/skipCount/orderBy', async () => {
    const list = await session.getChildren(s.rootId, { maxItems: 2, skipCount: 1, orderBy: 'cmis:name ASC' });
    assert.deepEqual(list.objects.map((o) => o.object.succinctProperties[P('name')]), ['Projects', 'README.md']);
    assert.equal(list.hasMoreItems, true);
  });

  await step(V, 'getObject README.md by id', async () => {
    const doc = props(await session.getObject(s.readmeId));
    assert.equal(doc[P('objectId')], s.readmeId);
    assert.equal(doc[P('name')], 'README.md');
    assert.deepEqual(doc[P('parentId')] ?? s.rootId, s.rootId);
  });

  await step(V, 'getContentStream README.md', async () => {
    const res = await session.getContentStream(s.readmeId);
    const body = await res.text();
    assert.match(body, /^# Welcome to Folio/);
  });

  await step(V, 'getCheckedOutDocs (cmisselector=checkedOut)', async () => {
    const list = await session.getCheckedOutDocs();
    assert.ok(Array.isArray(list.objects), 'objects array');
    const names = list.objects.map((o) => props(o, 'checked-out doc')[P('name')]);
    assert.ok(names.includes('budget.csv'), `budget.csv is checked out in the sample data; got ${JSON.stringify(names)}`);
  });

  await step(V, 'createFolder', async () => {
    const f = props(await session.createFolder(s.rootId, `cmisjs-${stamp}`));
    assert.equal(f[P('name')], `cmisjs-${stamp}`);
    assert.equal(f[P('baseTypeId')], P('folder'));
    assert.equal(f[P('parentId')], s.rootId);
    assert.equal(f[P('path')], `/cmisjs-${stamp}`);
    s.folderId = f[P('objectId')];
    s.folderPath = `/cmisjs-${stamp}`;
    const sub = props(await session.createFolder(s.folderId, 'sub'));
    assert.equal(sub[P('parentId')], s.folderId);
    s.subId = sub[P('objectId')];
    const sub2 = props(await session.createFolder(s.folderId, 'sub2'));
    s.sub2Id = sub2[P('objectId')];
  });

  await step(V, 'createDocument with string content', async () => {
    const d = props(await session.createDocument(s.folderId, text1, 'hello.txt'));
    assert.equal(d[P('name')], 'hello.txt');
    assert.equal(d[P('baseTypeId')], P('document'));
    assert.equal(d[P('objectTypeId')], P('document'));
    assert.equal(d[P('versionLabel')], '1.0');
    assert.equal(d[P('isMajorVersion')], true);
    assert.equal(d[P('isLatestVersion')], true);
    assert.equal(d[P('contentStreamLength')], Buffer.byteLength(text1));
    // The part arrives as application/octet-stream; the type comes from the name (docs/API.md §3.7).
    assert.equal(d[P('contentStreamMimeType')], 'text/plain');
    s.docId = d[P('objectId')];
    s.docSeries = d[P('versionSeriesId')];
    assert.ok(s.docSeries, 'versionSeriesId');
  });

  await step(V, 'createDocument with Blob content and properties', async () => {
    const blob = new Blob([pngBytes], { type: 'image/png' });
    const d = props(await session.createDocument(s.folderId, blob,
      { 'cmis:name': 'pixel.png', 'cmis:description': 'sixteen bytes' }, undefined, 'minor'));
    assert.equal(d[P('name')], 'pixel.png');
    assert.equal(d[P('description')], 'sixteen bytes');
    assert.equal(d[P('contentStreamMimeType')], 'image/png');
    assert.equal(d[P('contentStreamLength')], pngBytes.length);
    assert.equal(d[P('versionLabel')], '0.1');
    assert.equal(d[P('isMajorVersion')], false);
    s.pngId = d[P('objectId')];
  });

  await step(V, 'getContentStream equals what was uploaded', async () => {
    const res = await session.getContentStream(s.docId);
    assert.equal(await res.text(), text1);
    const res2 = await session.getContentStream(s.pngId, 'attachment');
    assert.deepEqual(new Uint8Array(await res2.arrayBuffer()), pngBytes);
    assert.match(res2.headers.get('content-type') || '', /^image\/png/);
    assert.match(res2.headers.get('content-disposition') || '', /^attachment/, 'download=attachment gives Content-Disposition: attachment');
  });

  await step(V, 'getChildren of the new folder', async () => {
    const list = await session.getChildren(s.folderId);
    assert.deepEqual(list.objects.map((o) => o.object.succinctProperties[P('name')]).sort(), ['hello.txt', 'pixel.png', 'sub', 'sub2']);
  });

  await step(V, 'updateProperties (description, then rename)', async () => {
    const u = props(await session.updateProperties(s.docId, { 'cmis:description': 'updated by CmisJS' }));
    assert.equal(u[P('description')], 'updated by CmisJS');
    assert.equal(u[P('versionLabel')], '1.0', 'an update never creates a version');
    const r = props(await session.updateProperties(u[P('objectId')], { 'cmis:name': 'hello-renamed.txt' }));
    assert.equal(r[P('name')], 'hello-renamed.txt');
    s.docId = r[P('objectId')];
    const again = props(await session.getObjectByPath(`${s.folderPath}/hello-renamed.txt`));
    assert.equal(again[P('description')], 'updated by CmisJS');
    await expectHttpError(session.getObjectByPath(`${s.folderPath}/hello.txt`), 404, 'objectNotFound', 'old name');
  });

  await step(V, 'getParents / getFolderParent / getProperties / getAllowableActions', async () => {
    const parents = await session.getParents(s.docId);
    assert.ok(Array.isArray(parents) && parents.length === 1, `one parent, got ${JSON.stringify(parents)}`);
    assert.equal(props(parents[0].object, 'parent')[P('objectId')], s.folderId);
    const fp = props(await session.getFolderParent(s.subId));
    assert.equal(fp[P('objectId')], s.folderId);
    const pr = await session.getProperties(s.docId);
    assert.equal(pr[P('name')], 'hello-renamed.txt', `bare property map, got ${JSON.stringify(pr).slice(0, 200)}`);
    const aa = await session.getAllowableActions(s.folderId);
    assert.equal(aa.canCreateDocument, true);
  });

  await step(V, 'setContentStream (overwriteFlag false, then true) and deleteContentStream', async () => {
    const d = props(await session.createDocument(s.folderId, 'first', 'scratch.txt'));
    const id = d[P('objectId')];
    // CmisJS sends overwriteFlag=false by default: a document with content refuses (docs/API.md §3.8).
    await expectHttpError(session.setContentStream(id, 'second', undefined, 'scratch.txt'), 409, 'contentAlreadyExists', 'setContent without overwrite');
    const u = props(await session.setContentStream(id, 'second, longer', true, 'scratch.txt'));
    assert.equal(u[P('contentStreamLength')], 'second, longer'.length);
    assert.equal(u[P('versionLabel')], '1.0', 'setting content on a version never creates a version');
    assert.equal(await (await session.getContentStream(id)).text(), 'second, longer');
    const res = await session.deleteContentStream(id);
    assert.ok(res.status >= 200 && res.status < 300, `2xx, got ${res.status}`);
    const e = props(await session.getObject(id));
    assert.ok(!e[P('contentStreamLength')], `no content after deleteContentStream, got length ${e[P('contentStreamLength')]}`);
  });

  await step(V, 'createDocument versioningState=checkedout, then checkIn', async () => {
    const pwc = props(await session.createDocument(s.folderId, 'draft', 'draft.txt', undefined, 'checkedout'));
    assert.equal(pwc[P('isPrivateWorkingCopy')], true);
    assert.equal(pwc[P('isVersionSeriesCheckedOut')], true);
    const v = props(await session.checkIn(pwc[P('objectId')], true, 'draft.txt', 'final', undefined, 'first version'));
    assert.equal(v[P('versionLabel')], '1.0');
    assert.equal(v[P('isLatestVersion')], true);
    assert.equal(await (await session.getContentStream(v[P('objectId')])).text(), 'final');
  });

  await step(V, 'createDocument with mimeTypeExtension and a non-ASCII name', async () => {
    const name = 'Gr\u00fc\u00dfe \u65e5\u672c';
    const d = props(await session.createDocument(s.folderId, '{"a":1}', name, 'json'));
    assert.equal(d[P('name')], name);
    assert.equal(d[P('contentStreamFileName')], `${name}.json`);
    assert.equal(d[P('contentStreamMimeType')], 'application/json');
    const again = props(await session.getObjectByPath(`${s.folderPath}/${name}`));
    assert.equal(again[P('objectId')], d[P('objectId')]);
  });

  await step(V, 'createItem and createRelationship (sent to repositoryUrl)', async () => {
    const item = props(await session.createItem(s.folderId, { 'cmis:name': 'an-item', 'cmis:objectTypeId': 'cmis:item' }));
    assert.equal(item[P('baseTypeId')], P('item'));
    const kids = await session.getChildren(s.folderId);
    assert.ok(kids.objects.some((o) => o.object.succinctProperties[P('objectId')] === item[P('objectId')]), 'the item is filed in the folder');
    const rel = props(await session.createRelationship({
      'cmis:name': 'cites', 'cmis:objectTypeId': 'cmis:relationship', 'cmis:sourceId': s.docId, 'cmis:targetId': s.readmeId,
    }));
    assert.equal(rel[P('baseTypeId')], P('relationship'));
    assert.equal(rel[P('sourceId')], s.docId);
    assert.equal(rel[P('targetId')], s.readmeId);
    s.relId = rel[P('objectId')];
    await session.deleteObject(s.relId, true);
  });

  await step(V, 'createType, updateType, getTypeDefinition, deleteType', async () => {
    const id = `cmisjs:t${letter}${Date.now().toString(36)}`;
    const t = await session.createType({
      id, localName: id.slice(7), localNamespace: 'urn:cmisjs', displayName: 'CmisJS test type', queryName: id,
      description: 'made by the CmisJS client test', baseId: 'cmis:document', parentId: 'cmis:document',
      creatable: true, fileable: true, queryable: false, fulltextIndexed: false, includedInSupertypeQuery: true,
      controllablePolicy: false, controllableACL: true, versionable: true, contentStreamAllowed: 'allowed',
      propertyDefinitions: {},
    });
    assert.equal(t.id, id);
    assert.equal((await session.getTypeDefinition(id)).parentId, P('document'));
    // updateType (docs/API.md §7.4): a display attribute and a new optional property.
    const u = await session.updateType({
      id, displayName: 'CmisJS test type, renamed',
      propertyDefinitions: { 'cmisjs:note': { id: 'cmisjs:note', propertyType: 'string', cardinality: 'single',
        updatability: 'readwrite', required: false } },
    });
    assert.equal(u.displayName, 'CmisJS test type, renamed');
    assert.equal(u.propertyDefinitions['cmisjs:note'].propertyType, 'string');
    const read = await session.getTypeDefinition(id);
    assert.equal(read.displayName, 'CmisJS test type, renamed');
    assert.ok(read.propertyDefinitions['cmisjs:note'], 'the new property is stored');
    // Changing what stored objects depend on is refused.
    await expectHttpError(session.updateType({ id, versionable: false }), 409, 'constraint', 'updateType versionable');
    // deleteType is refused while a document of the type exists, then answers {} (JSON).
    const d = props(await session.createDocument(s.folderId, 'typed', { 'cmis:name': 'typed.txt',
      'cmis:objectTypeId': id, 'cmisjs:note': 'hi' }));
    assert.equal(d['cmisjs:note'], 'hi');
    const refused = await expectHttpError(session.deleteType(id), 409, 'constraint', 'deleteType while in use');
    assert.match(refused.message, /typed\.txt/, 'the message names the document');
    await session.deleteObject(d[P('objectId')], true);
    assert.deepEqual(await session.deleteType(id), {});
    await expectHttpError(session.getTypeDefinition(id), 404, 'objectNotFound', 'deleted type');
  });

  // CmisJS's own test suite (test/cmis.spec.ts, "should create a new type" and "should
  // update a type"): a type created, then sent back whole to updateType; the attributes
  // given are stored as they were given (docs/API.md §7.4).
  await step(V, 'createType, then updateType with the definition sent (CmisJS\'s own test)', async () => {
    const id = `test:testDoc${letter}${Date.now().toString(36)}`;
    const pid = `${id}aString`;
    const testType = {
      id, baseId: 'cmis:document', parentId: 'cmis:document', displayName: 'Test Document',
      description: 'Test Document Type', localNamespace: 'local', localName: id, queryName: id,
      fileable: true, includedInSupertypeQuery: true, creatable: true, fulltextIndexed: false, queryable: false,
      controllableACL: true, controllablePolicy: false,
      propertyDefinitions: {
        [pid]: {
          id: pid, localNamespace: 'local', localName: pid, queryName: pid, displayName: 'A String',
          description: 'This is a String.', propertyType: 'string', updatability: 'readwrite', inherited: false,
          openChoice: false, required: false, cardinality: 'single', queryable: true, orderable: true,
        },
      },
    };
    const made = await session.createType(testType);
    assert.equal(made.fulltextIndexed, false, 'fulltextIndexed as given');
    assert.equal(made.queryable, false, 'queryable as given');
    assert.equal(made.propertyDefinitions[pid].queryName, pid, 'the property keeps its queryName');
    const updated = await session.updateType(testType);
    assert.ok(updated, 'updateType answers the type');
    assert.deepEqual(updated, made, 'nothing changed');
    assert.deepEqual(await session.updateType(made), made, 'the definition as answered is taken back too');
    assert.deepEqual(await session.deleteType(id), {});
  });

  // Secondary types (docs/API.md §6.6; Alfresco's aspects): made under cmis:secondary,
  // added to a document with a property of theirs, found by a query FROM them, taken off
  // by bulkUpdate's removeSecondaryTypeId (with their property), then deleted.
  await step(V, 'secondary types: createType, add, query, remove, deleteType', async () => {
    const id = `cmisjs:s${letter}${Date.now().toString(36)}`;
    const pid = `${id}label`;
    const t = await session.createType({
      id, baseId: 'cmis:secondary', parentId: 'cmis:secondary', displayName: 'CmisJS aspect', queryName: id,
      propertyDefinitions: { [pid]: { id: pid, propertyType: 'string', cardinality: 'single',
        updatability: 'readwrite', required: false } },
    });
    assert.equal(t.baseId, P('secondary'));
    assert.equal(t.creatable, false);
    const kids = await session.getTypeChildren(P('secondary'));
    assert.ok(kids.types.some((k) => k.id === id), 'typeChildren of cmis:secondary lists it');
    const d = props(await session.createDocument(s.folderId, 'aspect', {
      'cmis:name': `aspect${letter}.txt`, 'cmis:secondaryObjectTypeIds': [id], [pid]: 'urgent' }));
    assert.deepEqual(d[P('secondaryObjectTypeIds')], [id]);
    assert.equal(d[pid], 'urgent');
    const u = props(await session.updateProperties(d[P('objectId')], { [pid]: 'later' }));
    assert.equal(u[pid], 'later');
    const found = await session.query(`SELECT cmis:objectId, ${pid} FROM ${id}`);
    assert.equal(found.numItems, 1);
    assert.equal(found.results[0].succinctProperties[pid], 'later');
    await expectHttpError(session.deleteType(id), 409, 'constraint', 'deleteType while a document has it');
    const bulk = await session.bulkUpdateProperties([d[P('objectId')]], {}, [], [id]);
    assert.equal(bulk.length, 1);
    const after = props(await session.getObject(d[P('objectId')]));
    assert.equal(after[P('secondaryObjectTypeIds')], null);
    assert.equal(after[pid], undefined, 'its property went with it');
    assert.deepEqual(await session.deleteType(id), {});
    await session.deleteObject(d[P('objectId')], true);
  });

  // getDescendants and getFolderTree (docs/API.md §7.5, §4.2): containers {object: {object}, children}.
  await step(V, 'getDescendants and getFolderTree', async () => {
    const names = (list) => list.map((c) => c.object.object.succinctProperties[P('name')]).sort();
    const all = await session.getDescendants(s.folderId);
    assert.ok(Array.isArray(all), 'an array of containers');
    const children = (await session.getChildren(s.folderId)).objects.map((o) => o.object.succinctProperties[P('name')]);
    assert.deepEqual(names(all), children.sort(), 'the same objects as getChildren');
    assert.ok(names(all).includes('sub') && names(all).includes('sub2'));
    const one = await session.getDescendants(s.folderId, 1);
    assert.ok(one.every((c) => c.children === undefined), 'depth 1 has no children');
    const tree = await session.getFolderTree(s.folderId, -1);
    assert.deepEqual(names(tree), ['sub', 'sub2']);
    const caps = (await session.getRepositoryInfo())[V.repoId].capabilities;
    assert.equal(caps.capabilityGetDescendants, true);
    assert.equal(caps.capabilityGetFolderTree, true);
    // CmisJS leaves out a depth of 0 (falsy), so the invalidArgument of depth=0 is
    // covered by the HTTP tests instead.
  });

  // getContentChanges (docs/API.md §7.5, §4.2; CMIS 1.1 token rules): follow the log from the
  // newest token, make a change, and see exactly it.
  await step(V, 'getContentChanges', async () => {
    const info = (await session.getRepositoryInfo())[V.repoId];
    assert.equal(info.capabilities.capabilityChanges, 'all');
    const token = info.latestChangeLogToken;
    assert.ok(token, 'latestChangeLogToken is set');
    const f = props(await session.createFolder(s.folderId, 'changes-probe'));
    const page = await session.getContentChanges(token, true, false, false);
    assert.ok(Array.isArray(page.objects), 'objects array');
    assert.equal(page.objects.length, 2, 'the named event first, then the new one');
    const last = page.objects[1];
    assert.equal(last.changeEventInfo.changeType, 'created');
    assert.equal(last.succinctProperties[P('objectId')], f[P('objectId')]);
    assert.equal(last.succinctProperties[P('name')], 'changes-probe');
    assert.equal(page.changeLogToken, String(Number(token) + 1));
    assert.equal(page.hasMoreItems, false);
    await session.deleteObject(f[P('objectId')], true);
    const after = await session.getContentChanges(page.changeLogToken);
    assert.deepEqual(after.objects.map((o) => o.changeEventInfo.changeType), ['created', 'deleted']);
  });

  await step(V, 'optional services the repository says it lacks answer notSupported (405)', async () => {
    const caps = (await session.getRepositoryInfo())[V.repoId].capabilities;
    if (caps.capabilityMultifiling === false) {
      await expectHttpError(session.addObjectToFolder(s.docId, s.subId), 405, 'notSupported', 'addObjectToFolder');
    }
  });

  await step(V, 'checkOut', async () => {
    const pwc = props(await session.checkOut(s.docId));
    assert.notEqual(pwc[P('objectId')], s.docId, 'the PWC has its own id');
    assert.equal(pwc[P('isPrivateWorkingCopy')], true);
    assert.equal(pwc[P('isVersionSeriesCheckedOut')], true);
    assert.equal(pwc[P('versionSeriesId')], s.docSeries);
    s.pwcId = pwc[P('objectId')];
    const doc = props(await session.getObject(s.docId));
    assert.equal(doc[P('isVersionSeriesCheckedOut')], true);
    assert.equal(doc[P('versionSeriesCheckedOutId')], s.pwcId);
  });

  await step(V, 'checkIn major with new content and comment', async () => {
    const v = props(await session.checkIn(s.pwcId, true, 'hello-renamed.txt', text2, undefined, 'major check-in'));
    assert.equal(v[P('versionLabel')], '2.0');
    assert.equal(v[P('isMajorVersion')], true);
    assert.equal(v[P('isLatestVersion')], true);
    assert.equal(v[P('isLatestMajorVersion')], true);
    assert.equal(v[P('isVersionSeriesCheckedOut')], false);
    assert.equal(v[P('checkinComment')], 'major check-in');
    assert.equal(v[P('versionSeriesId')], s.docSeries);
    assert.equal(v[P('contentStreamMimeType')], 'text/plain');
    s.v20Id = v[P('objectId')];
    assert.equal(await (await session.getContentStream(s.v20Id)).text(), text2);
  });

  await step(V, 'checkOut + checkIn minor with new content and comment', async () => {
    const pwc = props(await session.checkOut(s.v20Id));
    const v = props(await session.checkIn(pwc[P('objectId')], false, 'hello-renamed.txt', text3, undefined, 'minor check-in'));
    assert.equal(v[P('versionLabel')], '2.1');
    assert.equal(v[P('isMajorVersion')], false);
    assert.equal(v[P('isLatestVersion')], true);
    assert.equal(v[P('isLatestMajorVersion')], false);
    assert.equal(v[P('checkinComment')], 'minor check-in');
    s.v21Id = v[P('objectId')];
    assert.equal(await (await session.getContentStream(s.v21Id)).text(), text3);
    // The 1.0 version still has its own content.
    assert.equal(await (await session.getContentStream(s.docId)).text(), text1);
  });

  await step(V, 'getAllVersions (labels and order)', async () => {
    const res = await session.getAllVersions(s.docSeries);
    const versions = await res.json();
    assert.ok(Array.isArray(versions), `a plain JSON array, got ${JSON.stringify(versions).slice(0, 200)}`);
    // Folio's default order is oldest first (docs/API.md §5).
    assert.deepEqual(versions.map((v) => props(v, 'version')[P('versionLabel')]), ['1.0', '2.0', '2.1']);
    assert.deepEqual(versions.map((v) => v.succinctProperties[P('isLatestVersion')]), [false, false, true]);
    assert.deepEqual(versions.map((v) => v.succinctProperties[P('checkinComment')] ?? null), [null, 'major check-in', 'minor check-in']);
    for (const v of versions) assert.equal(v.succinctProperties[P('versionSeriesId')], s.docSeries);
  });

  await step(V, 'checkOut + cancelCheckOut', async () => {
    const pwc = props(await session.checkOut(s.v21Id));
    const pwcId = pwc[P('objectId')];
    const res = await session.cancelCheckOut(pwcId);
    assert.ok(res.status >= 200 && res.status < 300, `2xx, got ${res.status}`);
    await expectHttpError(session.getObject(pwcId), 404, 'objectNotFound', 'the cancelled PWC');
    const latest = props(await session.getObject(s.v21Id));
    assert.equal(latest[P('isVersionSeriesCheckedOut')], false);
    const versions = await (await session.getAllVersions(s.docSeries)).json();
    assert.deepEqual(versions.map((v) => v.succinctProperties[P('versionLabel')]), ['1.0', '2.0', '2.1']);
  });

  await step(V, 'getObjectOfLatestVersion (and major)', async () => {
    const latest = props(await session.getObjectOfLatestVersion(s.docSeries));
    assert.equal(latest[P('versionLabel')], '2.1');
    assert.equal(latest[P('objectId')], s.v21Id);
    const major = props(await session.getObjectOfLatestVersion(s.docSeries, { major: true }));
    assert.equal(major[P('versionLabel')], '2.0', 'major=true gives the latest major version');
    const viaReturnVersion = props(await session.getObject(s.docId, 'latest'));
    assert.equal(viaReturnVersion[P('versionLabel')], '2.1');
    const planMajor = props(await session.getObjectOfLatestVersion(s.planSeries, { major: true }));
    assert.equal(planMajor[P('versionLabel')], '2.0');
  });

  await step(V, 'moveObject (a folder, then a document)', async () => {
    // As CmisJS's own test does: move a folder and read its new parentId.
    const f = props(await session.moveObject(s.sub2Id, s.folderId, s.subId));
    assert.equal(f[P('parentId')], s.subId, 'the moved folder has its new parentId');
    assert.equal(f[P('path')], `${s.folderPath}/sub/sub2`);
    // A document has no parentId property (CMIS: folders only): check its parents instead.
    const m = props(await session.moveObject(s.v21Id, s.folderId, s.subId));
    assert.equal(m[P('objectId')], s.v21Id);
    const parents = await session.getParents(s.v21Id);
    assert.equal(props(parents[0].object, 'parent')[P('objectId')], s.subId);
    const moved = props(await session.getObjectByPath(`${s.folderPath}/sub/hello-renamed.txt`));
    assert.equal(moved[P('versionSeriesId')], s.docSeries);
    await expectHttpError(session.getObjectByPath(`${s.folderPath}/hello-renamed.txt`), 404, 'objectNotFound', 'old path after move');
  });

  // bulkUpdate (docs/API.md §7.7–§7.9, §4.2; CMIS 1.1 §2.2.4.14 bulkUpdateProperties).
  await step(V, 'bulkUpdateProperties', async () => {
    const r = await session.bulkUpdateProperties([s.v21Id], { 'cmis:description': 'bulk' });
    assert.ok(Array.isArray(r) && r.length === 1 && r[0].id, `array of {id,newId,changeToken}, got ${JSON.stringify(r)}`);
    assert.equal(props(await session.getObject(s.v21Id))[P('description')], 'bulk');
  });

  // appendContent (docs/API.md §7.7–§7.9; CMIS 1.1 §2.2.4.19 appendContentStream).
  await step(V, 'appendContentStream', async () => {
    const d = props(await session.createDocument(s.folderId, 'part 1;', 'append.txt'));
    await session.appendContentStream(d[P('objectId')], ' part 2', true, 'append.txt');
    assert.equal(await (await session.getContentStream(d[P('objectId')])).text(), 'part 1; part 2');
  });

  // createDocumentFromSource (docs/API.md §7.7–§7.9; CMIS 1.1 §2.2.4.2).
  await step(V, 'createDocumentFromSource', async () => {
    const c = props(await session.createDocumentFromSource(s.folderId, s.readmeId, undefined, 'readme-copy.md'));
    assert.equal(c[P('name')], 'readme-copy.md');
    assert.match(await (await session.getContentStream(c[P('objectId')])).text(), /^# Welcome to Folio/);
  });

  // policies / renditions selectors (docs/API.md §7.5, §4.2): Folio has neither: empty arrays.
  await step(V, 'getAppliedPolicies and getRenditions (none)', async () => {
    assert.deepEqual(await session.getAppliedPolicies(s.v21Id), []);
    assert.deepEqual(await session.getRenditions(s.v21Id), []);
  });

  // getObjectRelationships (docs/API.md §7.5 `relationships`, §4.2 list shape; CMIS 1.1 §2.2.8.1).
  await step(V, 'getObjectRelationships', async () => {
    const rel = props(await session.createRelationship({
      'cmis:name': 'cites-2', 'cmis:objectTypeId': 'cmis:relationship', 'cmis:sourceId': s.v21Id, 'cmis:targetId': s.readmeId,
    }));
    const list = await session.getObjectRelationships(s.v21Id);
    assert.ok(Array.isArray(list.objects), 'objects array');
    assert.ok(list.objects.some((o) => o.succinctProperties[P('objectId')] === rel[P('objectId')]), 'the relationship is listed');
    await session.deleteObject(rel[P('objectId')], true);
  });

  // query (docs/API.md §12): CmisJS POSTs cmisaction=query with `statement`.
  await step(V, 'query: by name, both spellings, an alias', async () => {
    const r = await session.query(`SELECT ${P('name')} AS n, cmis:objectId FROM ${P('document')} WHERE cmis:name = 'README.md'`);
    assert.ok(Array.isArray(r.results), 'results array');
    assert.equal(r.numItems, 1);
    assert.equal(r.hasMoreItems, false);
    assert.equal(r.results[0].succinctProperties.n, 'README.md');
    assert.equal(r.results[0].succinctProperties[P('objectId')], s.readmeId);
  });

  await step(V, 'query: what this run changed is seen (IN_TREE, CONTAINS, searchAllVersions)', async () => {
    const latest = await session.query(`SELECT cmis:name FROM cmis:document WHERE IN_TREE('${s.folderId}') AND CONTAINS('"minor change"')`);
    assert.deepEqual(latest.results.map((o) => o.succinctProperties[P('name')]), ['hello-renamed.txt']);
    const old = `SELECT cmis:objectId FROM cmis:document WHERE cmis:versionSeriesId = '${s.docSeries}' AND CONTAINS('grüße')`;
    assert.equal((await session.query(old)).numItems, 0, 'only 1.0 says grüße: not the latest');
    const all = await session.query(old, true);
    assert.deepEqual(all.results.map((o) => o.succinctProperties[P('objectId')]), [s.docId]);
  });

  await step(V, 'query: ORDER BY and paging', async () => {
    const r = await session.query(
      `SELECT cmis:versionLabel FROM cmis:document WHERE cmis:versionSeriesId = '${s.planSeries}' ORDER BY cmis:versionLabel DESC`,
      true, { maxItems: 2, skipCount: 1 });
    assert.equal(r.numItems, 4);
    assert.equal(r.hasMoreItems, true);
    assert.deepEqual(r.results.map((o) => o.succinctProperties[P('versionLabel')]), ['2.0', '1.1']);
  });

  await step(V, 'error: a query with a syntax error rejects with 400 invalidArgument', async () => {
    const body = await expectHttpError(session.query('SELECT * FROM'), 400, 'invalidArgument', 'syntax error');
    assert.match(body.message, /line 1, column 14/, 'the message says where');
  });

  await step(V, 'deleteObject', async () => {
    const res = await session.deleteObject(s.pngId, true);
    assert.ok(res.status >= 200 && res.status < 300, `2xx, got ${res.status}`);
    await expectHttpError(session.getObject(s.pngId), 404, 'objectNotFound', 'deleted document');
  });

  await step(V, 'deleteTree', async () => {
    const res = await session.deleteTree(s.folderId, true);
    assert.ok(res.status >= 200 && res.status < 300, `2xx, got ${res.status}`);
    await expectHttpError(session.getObjectByPath(s.folderPath), 404, 'objectNotFound', 'deleted tree');
    await expectHttpError(session.getObject(s.v21Id), 404, 'objectNotFound', 'document inside the deleted tree');
  });

  await step(V, 'getTypeChildren (base types)', async () => {
    const t = await session.getTypeChildren();
    assert.ok(Array.isArray(t.types), 'types array');
    assert.ok(t.numItems > 0, 'numItems > 0');
    const ids = t.types.map((x) => x.id);
    for (const id of [P('document'), P('folder')]) assert.ok(ids.includes(id), `base type ${id} in ${JSON.stringify(ids)}`);
  });

  await step(V, 'getTypeChildren of the document type, with property definitions', async () => {
    const t = await session.getTypeChildren('cmis:document', true);
    const report = t.types.find((x) => x.id === 'acme:report');
    assert.ok(report, `acme:report is a subtype of document; got ${JSON.stringify(t.types.map((x) => x.id))}`);
    assert.ok(report.propertyDefinitions && report.propertyDefinitions['acme:quarter'], 'acme:quarter is defined');
  });

  await step(V, 'getTypeDefinition', async () => {
    const t = await session.getTypeDefinition('cmis:document');
    assert.equal(t.id, P('document'));
    assert.equal(t.baseId, P('document'));
    assert.ok(t.propertyDefinitions && t.propertyDefinitions[P('name')], `propertyDefinitions[${P('name')}]`);
    assert.equal(t.propertyDefinitions[P('name')].id, P('name'));
  });

  await step(V, 'error: getObjectByPath of a missing path rejects with 404 objectNotFound', async () => {
    const body = await expectHttpError(session.getObjectByPath('/no/such/thing.txt'), 404, 'objectNotFound', 'missing path');
    assert.match(body.message, /no\/such|thing\.txt/, 'the message names the path');
  });

  await step(V, 'error: checkIn of a document that is not a working copy rejects with 409 versioning', async () => {
    await expectHttpError(session.checkIn(s.readmeId, true, 'README.md', 'x'), 409, 'versioning', 'checkIn of a non-PWC');
  });
}

// --- a domain with users: CmisJS with setCredentials (HTTP Basic) -------------------------
// The server runs without FOLIO_ADMIN_PASSWORD, so this loopback client may create a domain
// (with its first user, alice) at the server URL.
async function runAuthenticated() {
  const serverUrl = base.replace(/\/+$/, '');
  const domain = `secure${Date.now().toString(36)}`;
  const V = { letter: 'auth', repoId: `${domain}/vault` };
  const P = (name) => 'cmis:' + name;
  const alicePw = `alice-${Math.random().toString(36).slice(2)}`;
  const bobPw = `bob-${Math.random().toString(36).slice(2)}`;
  const basic = (user, pw) => 'Basic ' + Buffer.from(`${user}:${pw}`).toString('base64');
  const form = (fields) => new URLSearchParams(fields).toString();
  const post = (url, headers, fields) => fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form(fields),
  });
  const domainUrl = `${serverUrl}/${domain}`;
  const s = {};

  await step(V, 'createDomain with its administrator, createRepository and createUser over HTTP', async () => {
    const d = await post(`${serverUrl}/`, {}, { operation: 'createDomain', domainId: domain, adminUserId: 'alice', adminPassword: alicePw });
    assert.equal(d.status, 201, 'createDomain');
    const made = await d.json();
    assert.equal(made.adminUser.userId, 'alice');
    assert.match(made.adminUser.apiKey, /^folio_/, 'the API key is shown once');
    s.aliceKey = made.adminUser.apiKey;
    const r = await post(domainUrl, { Authorization: basic('alice', alicePw) }, { operation: 'createRepository', repositoryId: 'vault' });
    assert.equal(r.status, 201, 'createRepository');
    const u = await post(domainUrl, { Authorization: basic('alice', alicePw) }, { operation: 'createUser', userId: 'bob', password: bobPw });
    assert.equal(u.status, 201, 'createUser');
  });

  const session = new cmis.CmisSession(domainUrl);
  await step(V, 'without credentials: 401 unauthorized with WWW-Authenticate', async () => {
    let err;
    try {
      await session.loadRepositories();
    } catch (e) {
      err = e;
    }
    assert.ok(err && err.response, 'loadRepositories rejects');
    assert.equal(err.response.status, 401);
    assert.equal(err.response.headers.get('www-authenticate'), 'Basic realm="folio"');
    assert.equal((await err.response.json()).exception, 'unauthorized');
  });

  await step(V, 'setCredentials with a wrong password: 401 unauthorized', async () => {
    session.setCredentials('alice', 'not-the-password');
    await expectHttpError(session.loadRepositories(), 401, 'unauthorized', 'wrong password');
  });

  await step(V, 'setCredentials: loadRepositories, getRepositoryInfo with aclCapabilities', async () => {
    session.setCredentials('alice', alicePw);
    await session.loadRepositories();
    assert.deepEqual(Object.keys(session.repositories), ['vault']);
    const info = (await session.getRepositoryInfo()).vault;
    assert.equal(info.capabilities.capabilityACL, 'manage');
    assert.equal(info.aclCapabilities.supportedPermissions, 'basic');
    assert.equal(info.aclCapabilities.propagation, 'propagate');
    const applyAcl = info.aclCapabilities.permissionMapping.find((m) => m.key === 'canApplyACL.Object');
    assert.deepEqual(applyAcl && applyAcl.permission, ['cmis:all']);
    s.rootId = info.rootFolderId;
  });

  await step(V, 'the root folder grants repository_vault cmis:all (getACL)', async () => {
    const acl = await session.getACL(s.rootId);
    assert.ok(Array.isArray(acl.aces), `aces in ${JSON.stringify(acl)}`);
    assert.ok(acl.aces.some((a) => a.principal.principalId === 'repository_vault' && a.permissions.includes('cmis:all')),
      `repository_vault has cmis:all in ${JSON.stringify(acl.aces)}`);
  });

  await step(V, 'createFolder and createDocument record the authenticated user', async () => {
    const f = props(await session.createFolder(s.rootId, 'private'));
    s.privateId = f[P('objectId')];
    assert.equal(f[P('createdBy')], 'alice');
    assert.equal(f[P('lastModifiedBy')], 'alice');
    const d = props(await session.createDocument(f[P('objectId')], 'secret\n', 'plan.txt'));
    assert.equal(d[P('createdBy')], 'alice');
    s.docId = d[P('objectId')];
  });

  await step(V, 'checkOut and checkIn as alice', async () => {
    const pwc = props(await session.checkOut(s.docId));
    assert.equal(pwc[P('versionSeriesCheckedOutBy')], 'alice');
    const v = props(await session.checkIn(pwc[P('objectId')], true, 'plan.txt', 'revised\n', undefined, 'by alice'));
    assert.equal(v[P('versionLabel')], '2.0');
    assert.equal(v[P('lastModifiedBy')], 'alice');
  });

  await step(V, 'bob, a user of the domain but not of the repository: 403 permissionDenied', async () => {
    const bob = new cmis.CmisSession(domainUrl);
    bob.setCredentials('bob', bobPw);
    await bob.loadRepositories();
    assert.deepEqual(Object.keys(bob.repositories), [], 'the service document lists only what bob may use');
    bob.defaultRepository = session.defaultRepository;
    const body = await expectHttpError(bob.getObjectByPath('/private/plan.txt'), 403, 'permissionDenied', 'gate');
    assert.match(body.message, /repository_vault/);
  });

  const bob = new cmis.CmisSession(domainUrl);
  const names = (list) => list.objects.map((o) => o.object.succinctProperties[P('name')]);
  await step(V, 'applyACL: alice takes repository_vault off /private; bob, now in the repository, may not read it', async () => {
    const g = await post(domainUrl, { Authorization: basic('alice', alicePw) },
      { operation: 'updateGroup', groupId: 'repository_vault', members: 'alice,bob' });
    assert.equal(g.status, 200, 'updateGroup');
    const acl = await session.applyACL(s.privateId, {}, { repository_vault: ['cmis:all'] }, 'objectonly');
    assert.ok(Array.isArray(acl.aces), `aces in ${JSON.stringify(acl)}`);
    assert.ok(!acl.aces.some((a) => a.principal.principalId === 'repository_vault'), JSON.stringify(acl.aces));
    assert.ok(acl.aces.some((a) => a.principal.principalId === 'alice' && a.permissions.includes('cmis:all')),
      `the creator keeps cmis:all: ${JSON.stringify(acl.aces)}`);
    bob.setCredentials('bob', bobPw);
    await bob.loadRepositories();
    assert.deepEqual(Object.keys(bob.repositories), ['vault']);
    const body = await expectHttpError(bob.getObject(s.privateId), 403, 'permissionDenied', 'no entry for bob');
    assert.match(body.message, /bob/);
    assert.deepEqual(names(await bob.getChildren(s.rootId)), [], 'the root\'s children leave /private out for bob');
  });

  await step(V, 'applyACL gives bob cmis:read: he reads, lists and sees his allowable actions, and may not write', async () => {
    await session.applyACL(s.privateId, { bob: ['cmis:read'] }, {});
    const got = props(await bob.getObject(s.privateId));
    assert.equal(got[P('name')], 'private');
    assert.deepEqual(names(await bob.getChildren(s.rootId)), ['private']);
    const aa = await bob.getAllowableActions(s.privateId);
    assert.equal(aa.canGetChildren, true);
    assert.equal(aa.canCreateDocument, false);
    assert.equal(aa.canApplyACL, false);
    const mine = await session.getAllowableActions(s.privateId);
    assert.equal(mine.canCreateDocument, true);
    assert.equal(mine.canApplyACL, true);
    await expectHttpError(bob.createFolder(s.privateId, 'bobs'), 403, 'permissionDenied', 'bob has cmis:read only');
    await expectHttpError(bob.applyACL(s.privateId, { bob: ['cmis:all'] }, {}), 403, 'permissionDenied',
      'applyACL needs cmis:all');
    const acl = await bob.getACL(s.privateId);
    assert.ok(acl.aces.some((a) => a.principal.principalId === 'bob' && a.permissions.includes('cmis:read')));
  });

  await step(V, 'an API key (X-API-KEY) works like a password; another domain\'s user does not', async () => {
    const repoUrl = session.defaultRepository.repositoryUrl;
    const ok = await fetch(`${repoUrl}?cmisselector=object&succinct=true`, { headers: { 'X-API-KEY': s.aliceKey } });
    assert.equal(ok.status, 200);
    const other = await fetch(`${serverUrl}/demo`, { headers: { Authorization: basic('alice', alicePw) } });
    assert.equal(other.status, 200, 'demo has no users: anyone may use it, credentials or not');
    const foreign = await fetch(`${repoUrl}?cmisselector=object`, { headers: { Authorization: basic('admin', alicePw) } });
    assert.equal(foreign.status, 401);
  });
}

(async () => {
  console.log(`CmisJS ${require('cmis/package.json').version} against ${serviceUrl} (node ${process.version})`);
  const variants = variantArg ? [variantArg] : ['A', 'B'];
  for (const v of variants) await runVariant(v);
  await runAuthenticated();
  if (failures.length) {
    console.log(`\nFAILED: ${failures.length} of ${stepCount} steps:`);
    for (const f of failures) console.log(`  ${f}`);
    process.exit(1);
  }
  console.log(`\nPASSED: ${stepCount} steps`);
})().catch((e) => {
  console.log(`FAIL (unexpected): ${e && e.stack ? e.stack : e}`);
  printExchanges();
  process.exit(1);
});
