// A repository: its folders as paged, sortable tables; documents with their properties,
// versions and preview; the actions that change them (docs/API.md §7.5 to §7.10).
import {h, fill, field, formatSize, formatDate, prop, baseKind, valueText, icon} from './dom.js';
import {call, upload, repoUrl, pathUrl, repositoryInfo, typeDefinition, credentials} from './api.js';
import {hashFor, go, errorSlot, showError, run, announce, dialog, state} from './common.js';
import {searchView} from './search.js';
import {changesView} from './changes.js';
import {aclView} from './acl.js';

const PAGE_SIZES = [50, 100, 500];
const CHILD_FILTER = ['objectId', 'baseTypeId', 'objectTypeId', 'name', 'contentStreamLength',
  'contentStreamMimeType', 'versionLabel', 'lastModificationDate', 'lastModifiedBy', 'creationDate',
  'isVersionSeriesCheckedOut', 'versionSeriesCheckedOutBy', 'path'].map((p) => 'cmis:' + p).join(',');
// Columns the server sorts by (children's orderBy, docs/API.md §7.6).
const SORTS = {name: 'cmis:name', modified: 'cmis:lastModificationDate', created: 'cmis:creationDate'};

export async function repositoryView(route, stillCurrent) {
  const {domain, repo, query} = route;
  const info = await repositoryInfo(domain, repo);
  state.readOnly = Boolean(info.readOnly);
  const view = query.get('view');
  const tabs = repoTabs(route, view);
  const note = state.readOnly
    ? h('p', {class: 'note', role: 'note'}, 'This server is read-only (folio serve --read-only): actions that change something are not offered.')
    : null;
  if (query.get('id')) return [await resolveId(route, query.get('id'))];
  let body;
  if (view === 'search') body = await searchView(route, info);
  else if (view === 'changes') body = await changesView(route, info, stillCurrent);
  else {
    const obj = await call(domain, pathUrl(domain, repo, route.path), {params: {
      cmisselector: 'object', succinct: 'true', includeAllowableActions: 'true'}});
    if (view === 'acl') body = await aclView(route, obj, info);
    else if (baseKind(prop(obj, 'baseTypeId')) === 'folder') body = await folderView(route, obj, info);
    else body = await documentView(route, obj, info);
  }
  return [tabs, note, body];
}

function repoTabs(route, view) {
  const {domain, repo, path} = route;
  const link = (label, q, current) => h('a', {href: hashFor(domain, repo, q.path || [], q.query || {}),
                                              'aria-current': current ? 'page' : false}, label);
  return h('nav', {class: 'tabs', 'aria-label': 'Repository'},
    link('Browse', {path: view ? [] : path}, !view || view === 'acl'),
    link('Search', {query: {view: 'search'}}, view === 'search'),
    link('Changes', {query: {view: 'changes'}}, view === 'changes'));
}

// An object named by id (a search result, a change-log entry): shown at its path.
async function resolveId(route, id) {
  const {domain, repo} = route;
  const obj = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'object', objectId: id, succinct: 'true'}});
  let path;
  if (baseKind(prop(obj, 'baseTypeId')) === 'folder') {
    path = String(prop(obj, 'path')).split('/').filter(Boolean);
  } else {
    const parents = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'parents', objectId: id, succinct: 'true'}});
    if (!parents.length) return h('p', {}, `Object ${id} is not filed in a folder.`);
    path = [...String(prop(parents[0].object, 'path')).split('/').filter(Boolean), parents[0].relativePathSegment];
  }
  const q = {};
  if (prop(obj, 'isLatestVersion') === false || prop(obj, 'isPrivateWorkingCopy')) q.version = id;
  history.replaceState(null, '', hashFor(domain, repo, path, q));
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  return h('p', {}, 'Opening…');
}

function kindOf(obj) {
  const base = baseKind(prop(obj, 'baseTypeId'));
  const type = baseKind(prop(obj, 'objectTypeId'));
  return type === base ? base : `${base} (${type})`;
}

function allowed(obj, action) {
  return !state.readOnly && Boolean(obj.allowableActions && obj.allowableActions[action]);
}

// ---------------------------------------------------------------- folders

async function folderView(route, folder, info) {
  const {domain, repo, path, query} = route;
  const sort = SORTS[query.get('sort')] ? query.get('sort') : 'name';
  const desc = query.get('dir') === 'desc';
  const size = PAGE_SIZES.includes(Number(query.get('size'))) ? Number(query.get('size')) : 100;
  const skip = Math.max(0, Number(query.get('skip')) || 0);
  const url = pathUrl(domain, repo, path);
  const page = await call(domain, url, {params: {cmisselector: 'children', succinct: 'true', maxItems: size,
    skipCount: skip, orderBy: `${SORTS[sort]} ${desc ? 'DESC' : 'ASC'}`, filter: CHILD_FILTER,
    includeAllowableActions: 'true'}});
  const here = (q) => hashFor(domain, repo, path, {sort, dir: desc ? 'desc' : '', size: size === 100 ? '' : size, skip, ...q});
  const status = h('p', {class: 'count', 'aria-live': 'polite'});
  const sortHeader = (key, label) => {
    const active = sort === key;
    const next = active && !desc ? 'desc' : '';
    return h('th', {scope: 'col', 'aria-sort': active ? (desc ? 'descending' : 'ascending') : 'none'},
      h('a', {href: here({sort: key, dir: next, skip: 0}), class: 'sort'}, label,
        active ? h('span', {'aria-hidden': 'true'}, desc ? ' ▼' : ' ▲') : null));
  };
  const rows = page.objects.map(({object: o}) => childRow(route, o));
  const table = h('table', {class: 'children'},
    h('caption', {class: 'visually-hidden'}, `Contents of ${path.length ? path.join('/') : 'the root folder'}`),
    h('thead', {}, h('tr', {}, sortHeader('name', 'Name'), h('th', {scope: 'col'}, 'Kind'),
      h('th', {scope: 'col', class: 'num'}, 'Size'), h('th', {scope: 'col'}, 'Version'), sortHeader('modified', 'Modified'),
      h('th', {scope: 'col'}, 'By'), h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, 'Actions')))),
    h('tbody', {}, rows));
  const total = page.numItems;
  fill(status, total === 0 ? 'This folder is empty.'
    : `${(skip + 1).toLocaleString()}–${(skip + page.objects.length).toLocaleString()} of ${total.toLocaleString()}`);
  const pager = h('nav', {class: 'pager', 'aria-label': 'Pages'},
    skip > 0 ? h('a', {href: here({skip: Math.max(0, skip - size)}), rel: 'prev'}, '← Previous') : null,
    page.hasMoreItems ? h('a', {href: here({skip: skip + size}), rel: 'next'}, 'Next →') : null,
    total > size ? pageJump(total, size, skip, here) : null,
    h('label', {}, 'Per page ', h('select', {onchange: (e) => go(here({size: e.target.value, skip: 0}))},
      PAGE_SIZES.map((n) => h('option', {value: n, selected: n === size}, n)))));
  const name = path.length ? path[path.length - 1] : (info.repositoryName || repo);
  const toolbar = h('div', {class: 'toolbar'});
  const uploads = h('ul', {class: 'uploads', 'aria-label': 'Uploads'});
  if (allowed(folder, 'canCreateFolder')) {
    toolbar.append(h('button', {type: 'button', onclick: () => newFolder(route, folder)}, icon('folder'), ' New folder'));
  }
  let picker = null;
  if (allowed(folder, 'canCreateDocument')) {
    picker = h('input', {type: 'file', multiple: true, id: 'upload-files', class: 'visually-hidden'});
    picker.addEventListener('change', () => { uploadFiles(route, folder, [...picker.files], uploads); picker.value = ''; });
    toolbar.append(h('label', {for: 'upload-files', class: 'button', tabindex: 0,
      onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); picker.click(); } }},
      icon('upload'), ' Upload files'), picker);
  }
  toolbar.append(h('a', {class: 'button', href: hashFor(domain, repo, path, {view: 'acl'})}, 'Permissions'));
  if (path.length) objectActions(toolbar, {...route, viewing: 'object'}, folder);
  const zone = h('section', {class: 'folder', 'aria-labelledby': 'folder-title'},
    h('h1', {id: 'folder-title'}, icon('folder'), ' ', name), toolbar,
    allowed(folder, 'canCreateDocument') ? h('p', {class: 'hint'}, 'Drop files on the table to upload them.') : null,
    uploads, h('div', {class: 'list-head'}, status, pager), h('div', {class: 'scroll'}, table));
  if (allowed(folder, 'canCreateDocument')) {
    zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dropping'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('dropping'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('dropping');
      const files = [...(e.dataTransfer ? e.dataTransfer.files : [])];
      if (files.length) uploadFiles(route, folder, files, uploads);
    });
  }
  return zone;
}

function pageJump(total, size, skip, here) {
  const pages = Math.ceil(total / size);
  const input = h('input', {type: 'number', min: 1, max: pages, value: Math.floor(skip / size) + 1, class: 'page-number'});
  return h('form', {class: 'jump', onsubmit: (e) => {
    e.preventDefault();
    const n = Math.min(pages, Math.max(1, Number(input.value) || 1));
    go(here({skip: (n - 1) * size}));
  }}, h('label', {}, 'Page ', input, ` of ${pages}`), h('button', {type: 'submit'}, 'Go'));
}

function childRow(route, o) {
  const {domain, repo, path} = route;
  const name = prop(o, 'name');
  const isFolder = baseKind(prop(o, 'baseTypeId')) === 'folder';
  const checkedOut = prop(o, 'isVersionSeriesCheckedOut');
  const menu = h('div', {class: 'row-actions'});
  objectActions(menu, {...route, path: [...path, name]}, o);
  return h('tr', {}, h('th', {scope: 'row'},
      h('a', {href: hashFor(domain, repo, [...path, name])}, icon(isFolder ? 'folder' : 'document'), ' ', name),
      checkedOut ? h('span', {class: 'badge warn', title: `checked out by ${prop(o, 'versionSeriesCheckedOutBy')}`},
        `checked out by ${prop(o, 'versionSeriesCheckedOutBy')}`) : null),
    h('td', {}, kindOf(o)), h('td', {class: 'num'}, isFolder ? '' : formatSize(prop(o, 'contentStreamLength'))),
    h('td', {}, prop(o, 'versionLabel') || ''), h('td', {}, h('time', {}, formatDate(prop(o, 'lastModificationDate')))),
    h('td', {}, prop(o, 'lastModifiedBy') || ''), h('td', {}, menu.childElementCount ? h('details', {class: 'menu'},
      h('summary', {'aria-label': `Actions on ${name}`}, '⋯'), menu) : null));
}

// Rename, move and delete buttons for `obj` (at route.path), as its allowable actions
// say. route.viewing 'object': the page shows obj itself (it follows obj's new place).
function objectActions(into, route, obj) {
  if (allowed(obj, 'canUpdateProperties')) {
    into.append(h('button', {type: 'button', onclick: () => rename(route, obj)}, 'Rename'));
  }
  if (allowed(obj, 'canMoveObject')) {
    into.append(h('button', {type: 'button', onclick: () => move(route, obj)}, 'Move'));
  }
  const isFolder = baseKind(prop(obj, 'baseTypeId')) === 'folder';
  if (allowed(obj, isFolder ? 'canDeleteTree' : 'canDeleteObject')) {
    into.append(h('button', {type: 'button', class: 'danger', onclick: () => remove(route, obj)}, 'Delete'));
  }
}

async function newFolder(route, folder) {
  const {domain, repo} = route;
  const made = await dialog('New folder', () => field('Name', h('input', {name: 'name', required: true, autocomplete: 'off'})),
    (form) => call(domain, repoUrl(domain, repo), {method: 'POST', params: {
      cmisaction: 'createFolder', objectId: prop(folder, 'objectId'), succinct: 'true',
      properties: {'cmis:name': form.elements.name.value, 'cmis:objectTypeId': 'cmis:folder'}}}), {submitLabel: 'Create folder'});
  if (made) { announce(`Folder ${prop(made, 'name')} created`); go(location.hash); }
}

async function rename(route, obj) {
  const {domain, repo, path} = route;
  const old = prop(obj, 'name');
  const done = await dialog(`Rename “${old}”`, () => field('New name', h('input', {name: 'name', required: true, value: old, autocomplete: 'off'})),
    (form) => call(domain, repoUrl(domain, repo), {method: 'POST', params: {
      cmisaction: 'update', objectId: prop(obj, 'objectId'), succinct: 'true', properties: {'cmis:name': form.elements.name.value}}}),
    {submitLabel: 'Rename'});
  if (!done) return;
  const newName = prop(done, 'name');
  announce(`Renamed to ${newName}`);
  // The renamed object's own page moves with it; a folder listing stays.
  if (route.viewing === 'object') go(hashFor(domain, repo, [...path.slice(0, -1), newName]));
  else go(location.hash);
}

// Move: the person picks the target folder by walking the folder tree.
async function move(route, obj) {
  const {domain, repo} = route;
  const name = prop(obj, 'name');
  const isFolder = baseKind(prop(obj, 'baseTypeId')) === 'folder';
  const movingPath = isFolder ? String(prop(obj, 'path')) : null;
  let at = {path: '/', id: null};
  const list = h('ul', {class: 'picker', 'aria-label': 'Folders'});
  const where = h('p', {'aria-live': 'polite'});
  const pickSlot = errorSlot();
  const show = async (folderPath) => {
    const folder = await call(domain, repoUrl(domain, repo) + folderPath.split('/').filter(Boolean).map((s) => '/' + encodeURIComponent(s)).join(''),
      {params: {cmisselector: 'object', succinct: 'true', filter: 'cmis:objectId,cmis:path,cmis:name'}});
    const tree = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'folderTree', objectId: prop(folder, 'objectId'),
      depth: 1, succinct: 'true', filter: 'cmis:objectId,cmis:name,cmis:path'}});
    at = {path: String(prop(folder, 'path')), id: prop(folder, 'objectId')};
    fill(where, 'Into: ', h('strong', {}, at.path));
    const entries = [];
    if (at.path !== '/') {
      const up = at.path.split('/').filter(Boolean).slice(0, -1);
      entries.push(h('li', {}, h('button', {type: 'button', onclick: () => show('/' + up.join('/'))}, '↑ Up')));
    }
    for (const t of tree) {
      const p = String(prop(t.object.object, 'path'));
      if (movingPath && (p === movingPath || p.startsWith(movingPath + '/'))) continue;  // not into itself
      entries.push(h('li', {}, h('button', {type: 'button', onclick: () => show(p)}, icon('folder'), ' ', prop(t.object.object, 'name'))));
    }
    fill(list, entries.length ? entries : h('li', {}, 'No folders here.'));
  };
  const start = route.path.slice(0, -1);
  const done = await dialog(`Move “${name}”`, () => {
    show('/' + start.join('/')).catch((e) => showError(pickSlot, e));
    return [where, list, pickSlot];
  }, () => call(domain, repoUrl(domain, repo), {method: 'POST', params: {
    cmisaction: 'move', objectId: prop(obj, 'objectId'), targetFolderId: at.id, succinct: 'true'}}), {submitLabel: 'Move here'});
  if (!done) return;
  announce(`Moved ${name} to ${at.path}`);
  go(hashFor(domain, repo, [...at.path.split('/').filter(Boolean), name]));
}

async function remove(route, obj) {
  const {domain, repo, path} = route;
  const name = prop(obj, 'name');
  const isFolder = baseKind(prop(obj, 'baseTypeId')) === 'folder';
  let what;
  if (isFolder) {
    const inside = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'children', objectId: prop(obj, 'objectId'),
      maxItems: 0, succinct: 'true'}});
    what = inside.numItems
      ? `The folder “${name}” and everything in it (${inside.numItems} item${inside.numItems === 1 ? '' : 's'} directly inside, and all below them) will be deleted.`
      : `The empty folder “${name}” will be deleted.`;
  } else {
    const versions = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'versions', objectId: prop(obj, 'objectId'),
      succinct: 'true', filter: 'cmis:versionLabel'}}).catch(() => []);
    what = `The document “${name}” and all its versions (${versions.length}) will be deleted.`;
  }
  const done = await dialog(`Delete “${name}”?`, () => h('p', {}, what),
    () => call(domain, repoUrl(domain, repo), {method: 'POST', params: {
      cmisaction: isFolder ? 'deleteTree' : 'delete', objectId: prop(obj, 'objectId')}}),
    {submitLabel: 'Delete', danger: true});
  if (!done) return;
  announce(`Deleted ${name}`);
  const parentHash = hashFor(domain, repo, path.slice(0, -1));
  if (route.viewing === 'object') go(parentHash); else go(location.hash);
}

// Uploads `files` into `folder`, one after the other, each with its progress bar.
async function uploadFiles(route, folder, files, list) {
  const {domain, repo} = route;
  const types = await documentTypes(domain, repo).catch(() => []);
  let typeId = 'cmis:document';
  if (types.length > 1) {
    const chosen = await dialog(`Upload ${files.length} file${files.length === 1 ? '' : 's'}`, () => [
      h('p', {}, files.map((f) => f.name).join(', ')),
      field('Document type', h('select', {name: 'type'}, types.map((t) => h('option', {value: t.id}, `${t.displayName || t.id} (${t.id})`))))],
    (form) => form.elements.type.value, {submitLabel: 'Upload'});
    if (!chosen) return;
    typeId = chosen;
  }
  let done = 0;
  for (const file of files) {
    const bar = h('progress', {max: file.size || 1, value: 0, 'aria-label': `Upload of ${file.name}`});
    const text = h('span', {class: 'upload-status'}, 'waiting');
    const slot = errorSlot();
    list.append(h('li', {}, h('span', {class: 'upload-name'}, file.name), bar, text, slot));
    text.textContent = 'uploading';
    try {
      await upload(domain, repoUrl(domain, repo), {cmisaction: 'createDocument', objectId: prop(folder, 'objectId'), succinct: 'true',
        properties: JSON.stringify({'cmis:name': file.name, 'cmis:objectTypeId': typeId}), content: file},
      (sent, total) => { bar.max = total; bar.value = sent; });
      bar.value = bar.max;
      text.textContent = 'done';
      done++;
    } catch (e) {
      text.textContent = 'failed';
      showError(slot, e);
    }
  }
  announce(`${done} of ${files.length} uploaded`);
  if (done) {
    const refresh = h('button', {type: 'button', onclick: () => go(location.hash)}, 'Show them');
    list.append(h('li', {}, refresh));
    refresh.focus();
  }
}

async function documentTypes(domain, repo) {
  const tree = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'typeDescendants', typeId: 'cmis:document', depth: -1}});
  const out = [{id: 'cmis:document', displayName: 'Document'}];
  const walk = (nodes) => { for (const n of nodes) { if (n.type.creatable !== false) out.push(n.type); walk(n.children || []); } };
  walk(tree);
  return out;
}

// ---------------------------------------------------------------- documents

async function documentView(route, latest, info) {
  route = {...route, viewing: 'object'};
  const {domain, repo, path, query} = route;
  const versionId = query.get('version');
  const obj = versionId
    ? await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'object', objectId: versionId, succinct: 'true', includeAllowableActions: 'true'}})
    : latest;
  const id = prop(obj, 'objectId');
  const name = prop(obj, 'name');
  const slot = errorSlot();
  const actions = h('div', {class: 'toolbar'});
  actions.append(downloadLink(domain, repo, id, name, 'Download'));
  let pwc = null;
  const checkedOut = prop(obj, 'isVersionSeriesCheckedOut');
  const pwcId = prop(obj, 'versionSeriesCheckedOutId');
  if (checkedOut && pwcId) {
    pwc = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'object', objectId: pwcId, succinct: 'true',
      includeAllowableActions: 'true'}}).catch(() => null);
  }
  if (allowed(obj, 'canCheckOut')) {
    const b = h('button', {type: 'button'}, 'Check out');
    b.addEventListener('click', async () => {
      const r = await run(b, slot, () => call(domain, repoUrl(domain, repo), {method: 'POST', params: {cmisaction: 'checkOut', objectId: id, succinct: 'true'}}));
      if (r) { announce(`${name} checked out`); go(hashFor(domain, repo, path)); }
    });
    actions.append(b);
  }
  const target = pwc || obj;
  if (pwc && allowed(pwc, 'canCheckIn')) {
    actions.append(h('button', {type: 'button', class: 'primary', onclick: () => checkIn(route, pwc)}, 'Check in'));
  }
  if (pwc && allowed(pwc, 'canCancelCheckOut')) {
    const b = h('button', {type: 'button'}, 'Cancel check-out');
    b.addEventListener('click', async () => {
      const ok = await dialog(`Cancel the check-out of “${name}”?`, () => h('p', {}, 'The working copy and the changes made to it are discarded; the versions stay as they are.'),
        () => call(domain, repoUrl(domain, repo), {method: 'POST', params: {cmisaction: 'cancelCheckOut', objectId: pwcId}}),
        {submitLabel: 'Discard the working copy', danger: true});
      if (ok) { announce('Check-out cancelled'); go(hashFor(domain, repo, path)); }
    });
    actions.append(b);
  }
  if (allowed(target, 'canUpdateProperties')) {
    actions.append(h('button', {type: 'button', onclick: () => editProperties(route, target)},
      pwc ? 'Edit working copy properties' : 'Edit properties'));
  }
  actions.append(h('a', {class: 'button', href: hashFor(domain, repo, path, {view: 'acl'})}, 'Permissions'));
  if (!versionId) objectActions(actions, route, obj);
  const holder = checkedOut
    ? h('p', {class: 'note checkout', role: 'note'}, h('strong', {}, 'Checked out'), ` by ${prop(obj, 'versionSeriesCheckedOutBy')}`,
        prop(obj, 'versionSeriesCheckedOutDate') ? ` since ${formatDate(prop(obj, 'versionSeriesCheckedOutDate'))}` : '',
        pwc ? [' (working copy ', h('a', {href: hashFor(domain, repo, path, {version: pwcId})}, pwcId), ')'] : '')
    : null;
  const versions = await versionsSection(route, obj);
  const head = h('header', {class: 'doc-head'},
    h('h1', {}, icon('document'), ' ', name),
    h('p', {class: 'sub'}, kindOf(obj), prop(obj, 'versionLabel') ? ` · version ${prop(obj, 'versionLabel')}` : '',
      prop(obj, 'contentStreamLength') !== null && prop(obj, 'contentStreamLength') !== undefined
        ? ` · ${formatSize(prop(obj, 'contentStreamLength'))}` : '',
      prop(obj, 'contentStreamMimeType') ? ` · ${prop(obj, 'contentStreamMimeType')}` : '',
      versionId ? [' · ', h('a', {href: hashFor(domain, repo, path)}, 'show the latest version')] : ''));
  return h('article', {class: 'document'}, head, holder, actions, slot,
    h('div', {class: 'doc-grid'}, h('div', {}, previewSection(domain, repo, obj), versions),
      await propertiesSection(domain, repo, obj, info)));
}

function contentUrl(domain, repo, id, attachment) {
  return `${repoUrl(domain, repo)}?cmisselector=content&objectId=${encodeURIComponent(id)}${attachment ? '&download=attachment' : ''}`;
}

// A download link. With credentials the bytes are fetched with them and saved from a
// blob (a plain link would carry none); anonymous domains get a plain link.
function downloadLink(domain, repo, id, name, label) {
  const a = h('a', {class: 'button', href: contentUrl(domain, repo, id, true), download: name}, label);
  a.addEventListener('click', async (e) => {
    if (!credentials(domain)) return;
    e.preventDefault();
    try {
      const blob = await call(domain, contentUrl(domain, repo, id, true), {as: 'blob'});
      const url = URL.createObjectURL(blob);
      const save = h('a', {href: url, download: name});
      document.body.append(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (err) {
      announce(`Download failed: ${err.exception || ''} ${err.message}`);
    }
  });
  return a;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|sql|x-sh)|.*\+(json|xml)$)/;
const PREVIEW_LIMIT = 20 * 1024 * 1024;

// Shows "Loading…" in `body`, marked busy (assistive technology and the browser test wait for
// it), until `pending` settles; then `show` draws the result, or the error is shown there.
function loading(body, pending, show) {
  body.setAttribute('aria-busy', 'true');
  fill(body, h('p', {}, 'Loading…'));
  pending.then(show).catch((e) => { const s = errorSlot(); showError(s, e); fill(body, s); })
    .finally(() => body.removeAttribute('aria-busy'));
}

function previewSection(domain, repo, obj) {
  const mime = prop(obj, 'contentStreamMimeType') || '';
  const length = Number(prop(obj, 'contentStreamLength') || 0);
  const body = h('div', {class: 'preview-body'});
  const section = h('section', {class: 'preview', 'aria-labelledby': 'preview-title'}, h('h2', {id: 'preview-title'}, 'Preview'), body);
  const id = prop(obj, 'objectId');
  if (!prop(obj, 'contentStreamId') && !length) { fill(body, h('p', {}, 'No content.')); return section; }
  const url = contentUrl(domain, repo, id, false);
  if (TEXT_TYPES.test(mime)) {
    loading(body, call(domain, url, {as: 'text', headers: {Range: 'bytes=0-65535'}}), (text) => {
      fill(body, h('pre', {tabindex: 0, 'aria-label': 'Text of the document'}, text),
           length > 65536 ? h('p', {class: 'hint'}, `The first 64 KB of ${formatSize(length)}.`) : null);
    });
  } else if ((mime.startsWith('image/') || mime === 'application/pdf') && length <= PREVIEW_LIMIT) {
    loading(body, call(domain, url, {as: 'blob'}), (blob) => {
      const src = URL.createObjectURL(new Blob([blob], {type: mime}));
      fill(body, mime === 'application/pdf'
        ? h('iframe', {src, title: `PDF preview of ${prop(obj, 'name')}`, class: 'pdf'})
        : h('img', {src, alt: `Preview of ${prop(obj, 'name')}`}));
    });
  } else {
    fill(body, h('p', {}, mime ? `No preview for ${mime}.` : 'No preview.'));
  }
  return section;
}

// The built-in properties (docs/API.md §6.1), which variant A spells without cmis:.
const BUILT_IN = new Set(['objectId', 'baseTypeId', 'objectTypeId', 'name', 'description', 'createdBy',
  'creationDate', 'lastModifiedBy', 'lastModificationDate', 'changeToken', 'secondaryObjectTypeIds', 'parentId',
  'path', 'allowedChildObjectTypeIds', 'isImmutable', 'isLatestVersion', 'isMajorVersion', 'isLatestMajorVersion',
  'isPrivateWorkingCopy', 'versionLabel', 'versionSeriesId', 'isVersionSeriesCheckedOut', 'versionSeriesCheckedOutBy',
  'versionSeriesCheckedOutId', 'versionSeriesCheckedOutDate', 'checkinComment', 'contentStreamLength',
  'contentStreamMimeType', 'contentStreamFileName', 'contentStreamId', 'sourceId', 'targetId', 'policyText']);

// Properties with their display names and both variants' ids (A: name, B: cmis:name).
async function propertiesSection(domain, repo, obj, info) {
  const type = await typeDefinition(domain, repo, prop(obj, 'objectTypeId')).catch(() => null);
  const defs = (type && type.propertyDefinitions) || {};
  const values = obj.succinctProperties;
  const rows = Object.keys(values).map((id) => {
    const def = defs[id] || {};
    const local = id.replace(/^cmis:/, '');
    const builtIn = id.startsWith('cmis:') || BUILT_IN.has(id);
    const a = builtIn ? local : id;
    const b = builtIn ? `cmis:${local}` : id;
    const value = values[id];
    return h('tr', {}, h('th', {scope: 'row'}, def.displayName || id,
        h('span', {class: 'ids'}, h('code', {}, b), a !== b ? [' ', h('code', {class: 'alt', title: 'variant A spelling'}, a)] : null)),
      h('td', {class: 'value', title: def.propertyType === 'datetime' && value !== null && !Array.isArray(value)
        ? new Date(Number(value)).toISOString() : false}, valueText(value, def.propertyType)));
  });
  return h('section', {class: 'properties', 'aria-labelledby': 'props-title'},
    h('h2', {id: 'props-title'}, 'Properties'),
    h('p', {class: 'hint'}, `Repository variant ${info.variant}: ids shown as variant B (cmis:name) and variant A (name).`),
    h('div', {class: 'scroll'}, h('table', {}, h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Property'),
      h('th', {scope: 'col'}, 'Value'))), h('tbody', {}, rows))));
}

async function versionsSection(route, obj) {
  const {domain, repo, path} = route;
  const list = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'versions', objectId: prop(obj, 'objectId'),
    succinct: 'true'}}).catch(() => null);
  if (!list) return null;
  const current = prop(obj, 'objectId');
  // Newest first (whatever --versions-newest-first says): the working copy, then by label.
  const rank = (v) => {
    if (prop(v, 'isPrivateWorkingCopy')) return [Infinity, 0];
    const m = /^(\d+)\.(\d+)$/.exec(prop(v, 'versionLabel') || '');
    return m ? [Number(m[1]), Number(m[2])] : [-1, 0];
  };
  const sorted = [...list].sort((a, b) => { const x = rank(a); const y = rank(b); return y[0] - x[0] || y[1] - x[1]; });
  const rows = sorted.map((v) => {
    const id = prop(v, 'objectId');
    const label = prop(v, 'versionLabel') || '(unversioned)';
    return h('tr', {'aria-current': id === current ? 'true' : false},
      h('th', {scope: 'row'}, h('a', {href: hashFor(domain, repo, path, {version: id})}, label),
        prop(v, 'isPrivateWorkingCopy') ? h('span', {class: 'badge warn'}, 'working copy') : null,
        prop(v, 'isLatestVersion') ? h('span', {class: 'badge'}, 'latest') : null),
      h('td', {}, formatDate(prop(v, 'lastModificationDate'))), h('td', {}, prop(v, 'lastModifiedBy') || ''),
      h('td', {}, prop(v, 'checkinComment') || ''), h('td', {class: 'num'}, formatSize(prop(v, 'contentStreamLength'))),
      h('td', {}, prop(v, 'contentStreamLength') !== null ? downloadLink(domain, repo, id, prop(v, 'name'), `Download ${label}`) : ''));
  });
  return h('section', {class: 'versions', 'aria-labelledby': 'versions-title'}, h('h2', {id: 'versions-title'}, 'Versions'),
    h('div', {class: 'scroll'}, h('table', {}, h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Version'),
      h('th', {scope: 'col'}, 'Date'), h('th', {scope: 'col'}, 'Author'), h('th', {scope: 'col'}, 'Comment'),
      h('th', {scope: 'col', class: 'num'}, 'Size'), h('th', {scope: 'col'}, 'Download'))), h('tbody', {}, rows))));
}

async function checkIn(route, pwc) {
  const {domain, repo, path} = route;
  const progress = h('progress', {max: 1, value: 0, hidden: true, 'aria-label': 'Upload'});
  const done = await dialog(`Check in “${prop(pwc, 'name')}”`, () => [
    field('New content (optional)', h('input', {type: 'file', name: 'file'}), 'without a file, the working copy’s content'),
    h('fieldset', {}, h('legend', {}, 'Version'),
      h('label', {}, h('input', {type: 'radio', name: 'major', value: 'true', checked: true}), ' Major (x.0)'),
      h('label', {}, h('input', {type: 'radio', name: 'major', value: 'false'}), ' Minor (x.y)')),
    field('Comment', h('textarea', {name: 'comment', rows: 3})), progress],
  (form) => {
    const file = form.elements.file.files[0];
    progress.hidden = !file;
    return upload(domain, repoUrl(domain, repo), {cmisaction: 'checkIn', objectId: prop(pwc, 'objectId'), succinct: 'true',
      major: form.elements.major.value, checkinComment: form.elements.comment.value || undefined, content: file},
    (sent, total) => { progress.max = total; progress.value = sent; });
  }, {submitLabel: 'Check in'});
  if (done) { announce(`Checked in as version ${prop(done, 'versionLabel')}`); go(hashFor(domain, repo, path)); }
}

// Edits the properties the type lets change now, each with an input of its type.
async function editProperties(route, obj) {
  const {domain, repo, path} = route;
  const type = await typeDefinition(domain, repo, prop(obj, 'objectTypeId'));
  const isPwc = Boolean(prop(obj, 'isPrivateWorkingCopy'));
  const defs = Object.values(type.propertyDefinitions || {}).filter((d) =>
    d.updatability === 'readwrite' || (isPwc && d.updatability === 'whencheckedout'));
  const inputs = [];
  const valueOf = (d) => { const v = obj.succinctProperties; return d.id in v ? v[d.id] : prop(obj, String(d.id).replace(/^cmis:/, '')); };
  const build = () => defs.map((d) => {
    const current = valueOf(d);
    let control;
    const multi = d.cardinality === 'multi';
    if (multi) {
      control = h('textarea', {rows: 3, value: (current || []).map((x) => d.propertyType === 'datetime' ? toLocalInput(x) : String(x)).join('\n')});
    } else if (d.propertyType === 'boolean') {
      control = h('select', {}, h('option', {value: ''}, '(not set)'), h('option', {value: 'true', selected: current === true}, 'true'),
        h('option', {value: 'false', selected: current === false}, 'false'));
    } else if (d.propertyType === 'integer' || d.propertyType === 'decimal') {
      control = h('input', {type: 'number', step: d.propertyType === 'integer' ? '1' : 'any', value: current ?? ''});
    } else if (d.propertyType === 'datetime') {
      control = h('input', {type: 'datetime-local', step: '1', value: current === null || current === undefined ? '' : toLocalInput(current)});
    } else if (d.propertyType === 'uri') {
      control = h('input', {type: 'url', value: current ?? ''});
    } else {
      control = h('input', {type: 'text', value: current ?? ''});
    }
    control.dataset.prop = d.id;
    control.required = Boolean(d.required) && !multi && d.propertyType !== 'boolean';
    inputs.push({d, control, before: control.value});
    return field(`${d.displayName || d.id} (${d.propertyType}${multi ? ', one per line' : ''})`, control, d.id);
  });
  const done = await dialog(`Properties of “${prop(obj, 'name')}”`, build, () => {
    const properties = {};
    for (const {d, control, before} of inputs) {
      if (control.value === before) continue;
      const parse = (text) => d.propertyType === 'datetime' ? new Date(text).toISOString() : text;
      if (d.cardinality === 'multi') properties[d.id] = control.value.split('\n').map((s) => s.trim()).filter(Boolean).map(parse);
      else properties[d.id] = control.value === '' ? null : parse(control.value);
    }
    if (!Object.keys(properties).length) return {unchanged: true};
    return call(domain, repoUrl(domain, repo), {method: 'POST', params: {cmisaction: 'update', objectId: prop(obj, 'objectId'),
      succinct: 'true', properties}});
  }, {submitLabel: 'Save'});
  if (!done || done.unchanged) return;
  announce('Properties saved');
  const newName = prop(done, 'name');
  go(hashFor(domain, repo, [...path.slice(0, -1), newName], route.query.get('version') ? {version: route.query.get('version')} : {}));
}

// A datetime (ms) as the value of a datetime-local input, in local time.
function toLocalInput(ms) {
  const d = new Date(Number(ms));
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
