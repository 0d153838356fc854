// The server and domain pages: domains, repositories, users and groups (docs/API.md §7.2,
// §7.3, §11.1). Forms are offered to those who may use them; the server still decides.
import {h, fill, field, icon} from './dom.js';
import {call, domainUrl} from './api.js';
import {hashFor, go, errorSlot, run, announce, dialog, state, identity, forgetIdentity, setFlash} from './common.js';

function readOnlyNote() {
  return h('p', {class: 'note', role: 'note'},
           'This server is read-only (folio serve --read-only): actions that change something are not offered.');
}

// A secret shown once (an API key): selectable, with a copy button.
function shownOnce(label, secret) {
  const out = h('output', {class: 'secret'}, secret);
  return h('div', {class: 'once', role: 'status'}, h('p', {}, label), out,
           h('button', {type: 'button', onclick: () => navigator.clipboard && navigator.clipboard.writeText(secret)}, 'Copy'),
           h('p', {class: 'hint'}, 'It is shown this once: Folio keeps only its hash.'));
}

export async function serverView(route) {
  const j = await call('', '/', {params: {operation: 'getDomains'}});
  state.readOnly = Boolean(j.readOnly);
  const list = h('ul', {class: 'tiles'}, j.domains.map((d) =>
    h('li', {}, h('a', {href: hashFor(d.domainId)}, icon('domain'), h('span', {class: 'title'}, d.domainId)),
      d.description ? h('p', {}, d.description) : null)));
  const parts = [h('h1', {}, 'Domains'), state.readOnly ? readOnlyNote() : null,
                 j.domains.length ? list : h('p', {}, 'No domain yet.')];
  if (!state.readOnly) {
    const slot = errorSlot();
    const id = h('input', {name: 'domainId', required: true, pattern: '\\w{3,}', autocomplete: 'off'});
    const desc = h('input', {name: 'description'});
    const admin = h('input', {name: 'adminUserId', autocomplete: 'off'});
    const password = h('input', {name: 'adminPassword', type: 'password', autocomplete: 'new-password'});
    const submit = h('button', {type: 'submit', class: 'primary'}, 'Create domain');
    const form = h('form', {class: 'card', 'aria-labelledby': 'new-domain'},
      h('h2', {id: 'new-domain'}, 'New domain'),
      field('Domain id', id, 'letters, digits and _; at least 3'), field('Description', desc),
      field('First user (administrator)', admin, 'optional: without users, anyone on this machine may use the domain'),
      field('Their password', password), slot, h('div', {class: 'buttons'}, submit));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const made = await run(submit, slot, () => call('', '/', {method: 'POST', params: {
        operation: 'createDomain', domainId: id.value, description: desc.value || undefined,
        adminUserId: admin.value || undefined, adminPassword: admin.value ? password.value : undefined}}));
      if (!made) return;
      announce(`Domain ${made.domainId} created`);
      setFlash(h('div', {}, h('p', {class: 'note'}, 'Domain ', h('a', {href: hashFor(made.domainId)}, made.domainId), ' created.'),
        made.adminUser && made.adminUser.apiKey ? shownOnce(`API key of ${made.adminUser.userId}:`, made.adminUser.apiKey) : null));
      go(location.hash);
    });
    parts.push(form);
  }
  return parts;
}

const TABS = [['repositories', 'Repositories'], ['users', 'Users'], ['groups', 'Groups']];

export async function domainView(route) {
  const domain = route.domain;
  const tab = route.query.get('tab') || 'repositories';
  const me = await identity(domain);  // 401 here asks for sign-in
  const nav = h('nav', {class: 'tabs', 'aria-label': 'Domain'}, TABS.map(([k, label]) =>
    h('a', {href: hashFor(domain, undefined, [], {tab: k}), 'aria-current': k === tab ? 'page' : false}, label)));
  let body;
  if (tab === 'users') body = await usersTab(domain, me);
  else if (tab === 'groups') body = await groupsTab(domain, me);
  else body = await repositoriesTab(domain, me);
  return [h('h1', {}, `Domain ${domain}`), nav, state.readOnly ? readOnlyNote() : null, body];
}

async function repositoriesTab(domain, me) {
  const repos = await call(domain, domainUrl(domain));
  const infos = Object.values(repos);
  if (infos.length) state.readOnly = Boolean(infos[0].readOnly);
  const parts = [infos.length
    ? h('ul', {class: 'tiles'}, infos.map((r) => h('li', {},
        h('a', {href: hashFor(domain, r.repositoryId)}, icon('repository'), h('span', {class: 'title'}, r.repositoryName || r.repositoryId)),
        h('p', {}, r.repositoryDescription || '', ' ', h('span', {class: 'badge'}, `variant ${r.variant}`)))))
    : h('p', {}, 'No repository you may use in this domain.')];
  if (me.admin && !state.readOnly) {
    const slot = errorSlot();
    const id = h('input', {name: 'repositoryId', required: true, autocomplete: 'off'});
    const name = h('input', {name: 'repositoryName'});
    const desc = h('input', {name: 'description'});
    const variant = h('select', {name: 'variant'}, h('option', {value: ''}, 'server default'),
                      h('option', {value: 'A'}, 'A (name, succinct)'), h('option', {value: 'B'}, 'B (cmis:name)'));
    const submit = h('button', {type: 'submit', class: 'primary'}, 'Create repository');
    const form = h('form', {class: 'card', 'aria-labelledby': 'new-repo'}, h('h2', {id: 'new-repo'}, 'New repository'),
      field('Repository id', id, 'letters, digits and -; at least 3'), field('Name', name), field('Description', desc),
      field('Variant', variant), slot, h('div', {class: 'buttons'}, submit));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const made = await run(submit, slot, () => call(domain, domainUrl(domain), {method: 'POST', params: {
        operation: 'createRepository', repositoryId: id.value, repositoryName: name.value || undefined,
        description: desc.value || undefined, variant: variant.value || undefined}}));
      if (made) { announce(`Repository ${id.value} created`); go(hashFor(domain, Object.keys(made)[0])); }
    });
    parts.push(form);
  }
  return parts;
}

async function usersTab(domain, me) {
  const j = await call(domain, domainUrl(domain), {params: {operation: 'getUsers'}});
  await noteReadOnly(domain);
  const write = !state.readOnly;
  const rows = j.users.map((u) => {
    const slot = errorSlot();
    const mayChange = write && (me.admin || u.userId === me.user);
    const resetPassword = h('button', {type: 'button'}, 'Reset password');
    resetPassword.addEventListener('click', () => dialog(`New password for ${u.userId}`,
      () => field('New password', h('input', {name: 'password', type: 'password', required: true, autocomplete: 'new-password'})),
      async (form) => {
        await call(domain, domainUrl(domain), {method: 'POST', params: {operation: 'updateUser', userId: u.userId, password: form.elements.password.value}});
        if (u.userId === me.user) forgetIdentity(domain);
        announce(`Password of ${u.userId} changed`);
      }, {submitLabel: 'Set password'}));
    const newKey = h('button', {type: 'button'}, 'New API key');
    newKey.addEventListener('click', async () => {
      const r = await run(newKey, slot, () => call(domain, domainUrl(domain), {method: 'POST',
        params: {operation: 'updateUser', userId: u.userId, regenerateApiKey: 'true'}}));
      if (!r) return;
      setFlash(shownOnce(`New API key of ${u.userId} (the old one no longer works):`, r.apiKey));
      go(location.hash);
    });
    const del = h('button', {type: 'button', class: 'danger'}, 'Delete');
    del.addEventListener('click', async () => {
      const done = await dialog(`Delete user ${u.userId}?`, () => h('p', {}, `User “${u.userId}” (${u.displayName}) will no longer be able to sign in.`),
        () => call(domain, domainUrl(domain), {method: 'POST', params: {operation: 'deleteUser', userId: u.userId}}),
        {submitLabel: 'Delete user', danger: true});
      if (done) { announce(`User ${u.userId} deleted`); go(location.hash); }
    });
    return h('tr', {}, h('th', {scope: 'row'}, u.userId), h('td', {}, u.displayName), h('td', {}, u.groups.join(', ')),
      h('td', {class: 'actions'}, mayChange ? [resetPassword, newKey] : null, write && me.admin ? del : null, slot));
  });
  const parts = [h('table', {}, h('caption', {}, `${j.users.length} users`),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'User'), h('th', {scope: 'col'}, 'Name'),
      h('th', {scope: 'col'}, 'Groups'), h('th', {scope: 'col'}, 'Actions'))), h('tbody', {}, rows))];
  if (write && me.admin) {
    const slot = errorSlot();
    const id = h('input', {name: 'userId', required: true, autocomplete: 'off'});
    const name = h('input', {name: 'displayName'});
    const password = h('input', {name: 'password', type: 'password', required: true, autocomplete: 'new-password'});
    const submit = h('button', {type: 'submit', class: 'primary'}, 'Create user');
    const form = h('form', {class: 'card', 'aria-labelledby': 'new-user'}, h('h2', {id: 'new-user'}, 'New user'),
      field('User id', id), field('Display name', name), field('Password', password), slot,
      h('div', {class: 'buttons'}, submit));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const made = await run(submit, slot, () => call(domain, domainUrl(domain), {method: 'POST', params: {
        operation: 'createUser', userId: id.value, displayName: name.value || undefined, password: password.value}}));
      if (!made) return;
      announce(`User ${made.userId} created`);
      setFlash(shownOnce(`API key of ${made.userId}:`, made.apiKey));
      go(location.hash);
    });
    parts.push(form);
  }
  return parts;
}

async function groupsTab(domain, me) {
  const j = await call(domain, domainUrl(domain), {params: {operation: 'getGroups'}});
  await noteReadOnly(domain);
  const write = !state.readOnly && me.admin;
  const builtIn = (id) => id === 'admin' || id === 'user' || id.startsWith('repository_');
  const rows = j.groups.map((g) => {
    const slot = errorSlot();
    const edit = h('button', {type: 'button'}, 'Edit members');
    edit.addEventListener('click', async () => {
      const done = await dialog(`Members of ${g.groupId}`,
        () => field('Members', h('input', {name: 'members', value: g.members.join(', '), autocomplete: 'off'}),
                    'user and group ids, separated by commas'),
        (form) => call(domain, domainUrl(domain), {method: 'POST', params: {operation: 'updateGroup', groupId: g.groupId,
          members: memberList(form.elements.members.value)}}),
        {submitLabel: 'Save members'});
      if (done) { announce(`Members of ${g.groupId} saved`); go(location.hash); }
    });
    const del = h('button', {type: 'button', class: 'danger'}, 'Delete');
    del.addEventListener('click', async () => {
      const done = await dialog(`Delete group ${g.groupId}?`, () => h('p', {}, `Group “${g.groupId}” and its ${g.members.length} memberships go; its members stay.`),
        () => call(domain, domainUrl(domain), {method: 'POST', params: {operation: 'deleteGroup', groupId: g.groupId}}),
        {submitLabel: 'Delete group', danger: true});
      if (done) { announce(`Group ${g.groupId} deleted`); go(location.hash); }
    });
    return h('tr', {}, h('th', {scope: 'row'}, g.groupId, builtIn(g.groupId) ? h('span', {class: 'badge'}, 'built-in') : null),
      h('td', {}, g.members.join(', ')),
      h('td', {class: 'actions'}, write && g.groupId !== 'user' ? edit : null, write && !builtIn(g.groupId) ? del : null, slot));
  });
  const parts = [h('table', {}, h('caption', {}, `${j.groups.length} groups`),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Group'), h('th', {scope: 'col'}, 'Members'),
      h('th', {scope: 'col'}, 'Actions'))), h('tbody', {}, rows))];
  if (write) {
    const slot = errorSlot();
    const id = h('input', {name: 'groupId', required: true, autocomplete: 'off'});
    const members = h('input', {name: 'members', autocomplete: 'off'});
    const submit = h('button', {type: 'submit', class: 'primary'}, 'Create group');
    const form = h('form', {class: 'card', 'aria-labelledby': 'new-group'}, h('h2', {id: 'new-group'}, 'New group'),
      field('Group id', id), field('Members', members, 'user and group ids, separated by commas'), slot,
      h('div', {class: 'buttons'}, submit));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const made = await run(submit, slot, () => call(domain, domainUrl(domain), {method: 'POST', params: {
        operation: 'createGroup', groupId: id.value,
        members: memberList(members.value)}}));
      if (made) { announce(`Group ${made.groupId} created`); go(location.hash); }
    });
    parts.push(form);
  }
  return parts;
}

// The domain's repositories say whether the server is read-only (repositoryInfo.readOnly).
async function noteReadOnly(domain) {
  try {
    const repos = await call(domain, domainUrl(domain));
    const first = Object.values(repos)[0];
    if (first) state.readOnly = Boolean(first.readOnly);
  } catch { /* the tab shows what it can */ }
}

// A members field for updateGroup/createGroup: comma-separated ids, '[]' for none.
function memberList(text) {
  const ids = text.split(',').map((s) => s.trim()).filter(Boolean);
  return ids.length ? ids.join(',') : '[]';
}
