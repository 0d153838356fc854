// The browse UI: routes the URL hash to a view, keeps the header (breadcrumbs, who is
// signed in) and the connection banner. Talks to Folio only through its HTTP API.
import {h, fill} from './dom.js';
import {call, credentials, setCredentials, clearCredentials, forget, onConnection, retryConnection} from './api.js';
import {parseHash, hashFor, errorSlot, showError, run, announce, state, identity, forgetIdentity, takeFlash} from './common.js';
import {serverView, domainView} from './admin.js';
import {repositoryView} from './browse.js';

const main = document.getElementById('main');
const crumbs = document.getElementById('crumbs');
const who = document.getElementById('who');

function signOut(scope) {
  clearCredentials(scope);
  forgetIdentity(scope);
  forget(scope);
  announce('Signed out');
  render();
}

// The sign-in form of a domain ('' for the server administrator), shown in place of a
// view that was refused with 401. `error` is that refusal.
function signInView(scope, error) {
  const slot = errorSlot();
  if (error && credentials(scope)) showError(slot, error);
  const title = scope ? `Sign in to domain “${scope}”` : 'Sign in as the server administrator';
  const modePassword = h('input', {type: 'radio', name: 'mode', value: 'password', checked: true, id: 'mode-password'});
  const modeKey = h('input', {type: 'radio', name: 'mode', value: 'key', id: 'mode-key'});
  const user = h('input', {id: 'signin-user', name: 'user', autocomplete: 'username', required: true,
                           value: scope ? '' : 'admin'});
  const password = h('input', {id: 'signin-password', name: 'password', type: 'password',
                               autocomplete: 'current-password', required: true});
  const key = h('input', {id: 'signin-key', name: 'key', autocomplete: 'off', spellcheck: 'false'});
  const passwordFields = h('div', {}, h('div', {class: 'field'}, h('label', {for: 'signin-user'}, 'User'), user),
                           h('div', {class: 'field'}, h('label', {for: 'signin-password'}, 'Password'), password));
  const keyFields = h('div', {hidden: true}, h('div', {class: 'field'}, h('label', {for: 'signin-key'}, 'API key'), key));
  const toggle = () => {
    const byKey = modeKey.checked;
    passwordFields.hidden = byKey; keyFields.hidden = !byKey;
    user.required = !byKey; password.required = !byKey; key.required = byKey;
  };
  modePassword.addEventListener('change', toggle);
  modeKey.addEventListener('change', toggle);
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Sign in');
  const form = h('form', {class: 'card signin', 'aria-labelledby': 'signin-title'},
    h('h1', {id: 'signin-title', tabindex: -1}, title),
    h('p', {}, scope ? 'This domain has users: sign in with your password or an API key. '
                      + 'The credentials stay in this browser tab (sessionStorage) until you sign out or close it.'
                    : 'Server-level operations need user admin and the password in FOLIO_ADMIN_PASSWORD.'),
    scope ? h('fieldset', {class: 'modes'}, h('legend', {}, 'Sign in with'),
              h('label', {}, modePassword, ' Password'), h('label', {}, modeKey, ' API key')) : null,
    passwordFields, keyFields, slot, h('div', {class: 'buttons'}, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const c = modeKey.checked ? {kind: 'key', secret: key.value.trim()}
                              : {kind: 'basic', user: user.value, secret: password.value};
    setCredentials(scope, c);
    forgetIdentity(scope);
    forget(scope);
    const ok = await run(submit, slot, async () => {
      if (scope) await identity(scope);
      else await call('', '/', {params: {operation: 'getDomains'}});
      return true;
    });
    if (!ok) { clearCredentials(scope); return; }
    announce('Signed in');
    render();
  });
  return form;
}

async function showWho(domain) {
  fill(who);
  const scope = domain || '';
  const c = credentials(scope);
  if (!domain) {
    if (c) fill(who, h('span', {}, 'server administrator'), ' ',
                h('button', {type: 'button', class: 'link', onclick: () => signOut('')}, 'Sign out'));
    return;
  }
  try {
    const me = await identity(domain);
    if (me.user === null) fill(who, h('span', {title: 'this domain has no users'}, 'anonymous'));
    else fill(who, h('span', {class: 'me'}, 'Signed in as ', h('strong', {}, me.displayName || me.user),
                     me.displayName && me.displayName !== me.user ? ` (${me.user})` : '', me.admin ? ' · admin' : ''),
              ' ', h('button', {type: 'button', class: 'link', onclick: () => signOut(domain)}, 'Sign out'));
  } catch {
    if (c) fill(who, h('button', {type: 'button', class: 'link', onclick: () => signOut(domain)}, 'Sign out'));
  }
}

function showCrumbs(route) {
  const items = [h('a', {href: '#/'}, 'Server')];
  if (route.domain) items.push(h('a', {href: hashFor(route.domain)}, route.domain));
  if (route.repo) items.push(h('a', {href: hashFor(route.domain, route.repo)}, route.repo));
  route.path.forEach((seg, i) => items.push(h('a', {href: hashFor(route.domain, route.repo, route.path.slice(0, i + 1))}, seg)));
  const last = items[items.length - 1];
  last.setAttribute('aria-current', 'page');
  fill(crumbs, h('ol', {}, items.map((a) => h('li', {}, a))));
}

let generation = 0;
// Draws the view of the current location. A newer location wins over a slower older one.
export async function render() {
  const mine = ++generation;
  const route = parseHash();
  showCrumbs(route);
  showWho(route.domain);
  state.readOnly = false;
  const view = h('div', {class: 'view', 'aria-busy': 'true'});
  const stillCurrent = () => mine === generation;
  try {
    let content;
    if (!route.domain) content = await serverView(route, stillCurrent);
    else if (!route.repo) content = await domainView(route, stillCurrent);
    else content = await repositoryView(route, stillCurrent);
    if (!stillCurrent()) return;
    fill(view, takeFlash(), content);
  } catch (e) {
    if (!stillCurrent()) return;
    if (e.status === 401) fill(view, signInView(route.domain || '', e));
    else {
      const slot = errorSlot();
      showError(slot, e);
      fill(view, h('h1', {tabindex: -1}, 'Cannot show this'), slot,
           h('p', {}, h('a', {href: hashFor(route.domain, route.repo)}, 'Back up')));
    }
  }
  view.removeAttribute('aria-busy');
  fill(main, view);
  main.dataset.location = location.hash;  // what is shown (tests wait for it)
  document.title = [route.path[route.path.length - 1] || route.repo || route.domain, 'Folio'].filter(Boolean).join(' – ');
  const heading = main.querySelector('h1');
  if (heading && render.moveFocus) { heading.setAttribute('tabindex', '-1'); heading.focus({preventScroll: true}); }
  render.moveFocus = true;
}

// The connection banner: shown while the server cannot be reached; reads retry.
const banner = document.getElementById('connection');
onConnection((isLost) => {
  banner.hidden = !isLost;
  if (isLost) fill(banner, 'The connection to the server is lost; retrying… ',
                   h('button', {type: 'button', onclick: retryConnection}, 'Retry now'));
  else announce('Connection restored');
});

document.getElementById('skip').addEventListener('click', () => main.focus());
window.addEventListener('hashchange', render);
if (!location.hash) history.replaceState(null, '', '#/');
render();
