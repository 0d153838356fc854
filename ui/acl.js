// An object's access control list (docs/API.md §11.3, §11.4): who may do what. A holder
// of cmis:all adds and removes entries; on a folder, optionally for everything inside.
import {h, fill, field, prop, baseKind} from './dom.js';
import {call, repoUrl, domainUrl} from './api.js';
import {hashFor, go, errorSlot, run, announce, state} from './common.js';

const PERMISSIONS = ['cmis:read', 'cmis:write', 'cmis:all'];

export async function aclView(route, obj, info) {
  const {domain, repo, path} = route;
  const id = prop(obj, 'objectId');
  const name = path.length ? path[path.length - 1] : 'the root folder';
  const acl = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'acl', objectId: id}});
  const mayApply = !state.readOnly && Boolean(obj.allowableActions && obj.allowableActions.canApplyACL);
  const isFolder = baseKind(prop(obj, 'baseTypeId')) === 'folder';
  // Propagation to a folder's contents, unless the repository applies changes to the
  // object only (aclCapabilities.propagation objectonly).
  const canPropagate = isFolder && Boolean(info.aclCapabilities) && info.aclCapabilities.propagation !== 'objectonly';
  const slot = errorSlot();
  const propagate = h('input', {type: 'checkbox', id: 'acl-propagate', checked: true});
  const apply = async (button, params) => {
    const r = await run(button, slot, () => call(domain, repoUrl(domain, repo), {method: 'POST', params: {
      cmisaction: 'applyACL', objectId: id, ...params,
      ACLPropagation: canPropagate && propagate.checked ? 'propagate' : 'objectonly'}}));
    if (r) { announce('Permissions saved'); go(location.hash); }
  };
  const rows = acl.aces.map((ace) => {
    const principal = ace.principal.principalId;
    const remove = h('button', {type: 'button', class: 'danger', 'aria-label': `Remove ${principal}`}, 'Remove');
    remove.addEventListener('click', () => apply(remove, {removeACEs: [{principal: {principalId: principal}, permissions: ace.permissions}]}));
    return h('tr', {}, h('th', {scope: 'row'}, principal), h('td', {}, ace.permissions.join(', ')),
      h('td', {}, ace.isDirect ? 'direct' : 'inherited'), h('td', {}, mayApply ? remove : null));
  });
  const parts = [h('h1', {}, `Permissions of “${name}”`),
    h('p', {}, h('a', {href: hashFor(domain, repo, path)}, `← Back to ${name}`)),
    h('table', {class: 'acl'}, h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Principal'), h('th', {scope: 'col'}, 'Permissions'),
      h('th', {scope: 'col'}, 'Entry'), h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, 'Actions')))), h('tbody', {}, rows))];
  if (!mayApply) {
    parts.push(h('p', {class: 'note'}, state.readOnly ? 'This server is read-only.'
      : 'Only a holder of cmis:all on this object may change its permissions.'));
    return parts;
  }
  const principals = h('datalist', {id: 'principals'}, h('option', {value: 'cmis:anyone'}));
  Promise.all([call(domain, domainUrl(domain), {params: {operation: 'getUsers'}}),
               call(domain, domainUrl(domain), {params: {operation: 'getGroups'}})]).then(([u, g]) => {
    for (const x of [...u.users.map((a) => a.userId), ...g.groups.map((a) => a.groupId)]) principals.append(h('option', {value: x}));
  }).catch(() => {});
  const principal = h('input', {name: 'principal', list: 'principals', required: true, autocomplete: 'off'});
  const permission = h('select', {name: 'permission'}, PERMISSIONS.map((p) => h('option', {value: p}, p)));
  const add = h('button', {type: 'submit', class: 'primary'}, 'Add entry');
  const form = h('form', {class: 'card', 'aria-labelledby': 'acl-add'}, h('h2', {id: 'acl-add'}, 'Grant a permission'),
    field('User or group', principal), principals, field('Permission', permission),
    canPropagate ? h('div', {class: 'field'}, h('label', {for: 'acl-propagate', class: 'check'}, propagate,
      ' Also change everything inside this folder (additions and removals)')) : null,
    isFolder && !canPropagate ? h('p', {class: 'hint'}, 'Changes apply to this folder only; what it holds keeps its own entries.') : null,
    slot, h('div', {class: 'buttons'}, add));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply(add, {addACEs: [{principal: {principalId: principal.value.trim()}, permissions: [permission.value]}]});
  });
  parts.push(form);
  return parts;
}
