// What every view shares: locations (the URL hash), errors shown where they happened,
// dialogs, and the polite status line read by screen readers.
import {h, fill} from './dom.js';
import {call, domainUrl} from './api.js';

// A location: #/domain/repo/folder/name?view=search&q=x. Segments are percent-encoded,
// so names may hold '?', '#' or '/'-free anything.
export function parseHash(hash = location.hash) {
  let text = hash.replace(/^#/, '');
  let query = '';
  const q = text.indexOf('?');
  if (q >= 0) { query = text.slice(q + 1); text = text.slice(0, q); }
  const segments = text.split('/').filter((s) => s !== '').map((s) => {
    try { return decodeURIComponent(s); } catch { return s; }
  });
  return {domain: segments[0], repo: segments[1], path: segments.slice(2), query: new URLSearchParams(query)};
}

export function hashFor(domain, repo, path = [], query = {}) {
  let s = '#/';
  const parts = [domain, repo, ...path].filter((x) => x !== undefined && x !== null);
  s += parts.map(encodeURIComponent).join('/');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const qs = q.toString();
  return qs ? `${s}?${qs}` : s;
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

// Text of an error for people: the server's exception and message.
export function errorText(e) {
  if (e && e.exception === 'connection') return `Connection lost: ${e.message}`;
  if (e && e.exception) return `${e.exception}: ${e.message}`;
  return `Error: ${e && e.message ? e.message : e}`;
}

// A slot for the error of one action, shown next to it (role=alert: read at once).
export function errorSlot() {
  return h('p', {class: 'error', role: 'alert', hidden: true});
}
export function showError(slot, e) {
  fill(slot, h('strong', {}, e && e.exception ? e.exception : 'Error'), ' ', e && e.message ? e.message : String(e));
  slot.hidden = false;
}
export function clearError(slot) { slot.hidden = true; slot.replaceChildren(); }

// Runs `action` for `button`: disabled meanwhile, its error shown in `slot`.
// Resolves to the action's result, or undefined when it failed.
export async function run(button, slot, action) {
  if (slot) clearError(slot);
  if (button) button.disabled = true;
  try {
    return await action();
  } catch (e) {
    if (slot) showError(slot, e); else announce(errorText(e));
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

// Polite announcement in the status line (and visible there).
export function announce(text) {
  const s = document.getElementById('status');
  if (!s) return;
  s.textContent = text;
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { s.textContent = ''; }, 4000);
}

// A modal dialog with a form. `build(form)` returns the fields; `submit(form)` does the
// work and may throw (its error is shown in the dialog, which stays open). Resolves with
// submit's result, or undefined when cancelled. Escape cancels; focus returns to where
// it was.
export function dialog(title, build, submit, {submitLabel = 'OK', danger = false} = {}) {
  return new Promise((resolve) => {
    const before = document.activeElement;
    const slot = errorSlot();
    const ok = h('button', {type: 'submit', class: danger ? 'danger' : 'primary'}, submitLabel);
    const cancel = h('button', {type: 'button'}, 'Cancel');
    const form = h('form', {method: 'dialog'});
    const titleId = `dlg${Date.now()}`;
    const dlg = h('dialog', {'aria-labelledby': titleId}, form);
    fill(form, h('h2', {id: titleId}, title), build(form), slot, h('div', {class: 'buttons'}, ok, cancel));
    let result;
    const close = () => { dlg.close(); };
    cancel.addEventListener('click', close);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const r = await run(ok, slot, () => submit(form));
      if (slot.hidden) { result = r ?? true; close(); }  // an empty answer (null) is a success too
    });
    dlg.addEventListener('close', () => {
      dlg.remove();
      if (before && before.focus) before.focus();
      resolve(result);
    });
    document.body.append(dlg);
    dlg.showModal();
    const first = form.querySelector('input:not([type=hidden]), select, textarea');
    if (first) first.focus(); else ok.focus();
  });
}

// Shared page state: set by the app as the location changes.
export const state = {readOnly: false};

// A notice for the top of the next view drawn (an API key shown once, after the list
// that gains its user is drawn again).
let flash = null;
export function setFlash(node) { flash = node; }
export function takeFlash() { const f = flash; flash = null; return f; }

// Who is signed in to each domain: getUsers answers the caller (null: anonymous, in a
// domain without users, who may do everything).
const identities = new Map();
export function forgetIdentity(domain) { identities.delete(domain); }
export function identity(domain) {
  if (!identities.has(domain)) {
    const p = call(domain, domainUrl(domain), {params: {operation: 'getUsers'}}).then((j) => {
      const me = j.users.find((u) => u.userId === j.caller);
      return {user: j.caller, displayName: me ? me.displayName : null,
              admin: j.caller === null || Boolean(me && me.groups.includes('admin')), users: j.users};
    });
    identities.set(domain, p);
    p.catch(() => identities.delete(domain));
  }
  return identities.get(domain);
}

