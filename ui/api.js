// Folio's HTTP API as the UI uses it: the same requests a CMIS Browser Binding client
// sends (docs/API.md). Every request carries `X-Requested-With: XMLHttpRequest`, so a
// missing or wrong credential is answered 401 without `WWW-Authenticate: Basic`, and the
// browser shows no login dialog of its own (the UI has its sign-in form).
// Credentials live in sessionStorage only, one entry per domain ('' is the server).

const KEY = 'folio.credentials:';

export function credentials(scope) {
  try { return JSON.parse(sessionStorage.getItem(KEY + scope)); } catch { return null; }
}
export function setCredentials(scope, c) { sessionStorage.setItem(KEY + scope, JSON.stringify(c)); }
export function clearCredentials(scope) { sessionStorage.removeItem(KEY + scope); }

function base64(text) {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

function headersFor(scope) {
  const headers = {'X-Requested-With': 'XMLHttpRequest'};
  const c = credentials(scope);
  if (c && c.kind === 'key') headers['X-API-KEY'] = c.secret;
  else if (c) headers.Authorization = 'Basic ' + base64(`${c.user}:${c.secret}`);
  return headers;
}

// A failed request: the server's exception and message (docs/API.md §8), or
// exception 'connection' when the server could not be reached.
export class ApiError extends Error {
  constructor(status, exception, message) {
    super(message);
    this.status = status;
    this.exception = exception;
  }
}

const enc = encodeURIComponent;
export function domainUrl(domain) { return '/' + enc(domain); }
export function repoUrl(domain, repo) { return `/${enc(domain)}/${enc(repo)}`; }
export function pathUrl(domain, repo, path) {
  return repoUrl(domain, repo) + path.map((s) => '/' + enc(s)).join('');
}

// Connection state: listeners hear true (lost) and false (back).
const connectionListeners = new Set();
export function onConnection(f) { connectionListeners.add(f); }
let lost = false;
function setLost(v) {
  if (lost === v) return;
  lost = v;
  for (const f of connectionListeners) f(v);
}
let retryNow = null;
export function retryConnection() { if (retryNow) retryNow(); }

async function errorOf(response) {
  const text = await response.text();
  try {
    const j = JSON.parse(text);
    if (j && j.exception) return new ApiError(response.status, j.exception, j.message || '');
  } catch { /* not JSON */ }
  return new ApiError(response.status, `HTTP ${response.status}`, text.slice(0, 200) || response.statusText);
}

// GET (reads) or POST (writes). `params` go into the query string for GET and into a
// multipart body for POST (accepted in both variants, also under --strict). A read whose
// connection fails is retried until the server answers (the UI says the connection is
// lost meanwhile); a write is never retried: it may have been done.
// `as`: 'json' (default), 'text', 'blob' or 'response'.
export async function call(scope, url, {method = 'GET', params = {}, as = 'json', headers = {}} = {}) {
  let target = url;
  const init = {method, headers: {...headersFor(scope), ...headers}, credentials: 'omit', cache: 'no-store'};
  if (method === 'GET') {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.append(k, v);
    const qs = q.toString();
    if (qs) target += (target.includes('?') ? '&' : '?') + qs;
  } else {
    const form = new FormData();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined || v === null) continue;
      if (v instanceof Blob) form.append(k, v, v.name || 'content');
      else form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    init.body = form;
  }
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(target, init);
      setLost(false);
      break;
    } catch (e) {
      if (method !== 'GET') {
        setLost(true);
        throw new ApiError(0, 'connection', 'the server cannot be reached: the change may or may not have been made');
      }
      setLost(true);
      const wait = Math.min(500 * 2 ** attempt, 5000);
      await new Promise((resolve) => { const t = setTimeout(resolve, wait); retryNow = () => { clearTimeout(t); resolve(); }; });
    }
  }
  if (!response.ok) throw await errorOf(response);
  if (as === 'response') return response;
  if (as === 'blob') return response.blob();
  const text = await response.text();
  if (as === 'text') return text;
  return text ? JSON.parse(text) : null;
}

// A POST with a file, through XMLHttpRequest for its upload progress:
// onProgress(sentBytes, totalBytes). Resolves with the JSON answer.
export function upload(scope, url, params, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [k, v] of Object.entries(headersFor(scope))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded, e.total); };
    xhr.onload = () => {
      let j = null;
      try { j = JSON.parse(xhr.responseText); } catch { /* empty or not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(j);
      else if (j && j.exception) reject(new ApiError(xhr.status, j.exception, j.message || ''));
      else reject(new ApiError(xhr.status, `HTTP ${xhr.status}`, xhr.statusText));
    };
    xhr.onerror = () => { setLost(true); reject(new ApiError(0, 'connection', 'the server cannot be reached')); };
    const form = new FormData();
    for (const [k, v] of Object.entries(params)) {
      if (v instanceof Blob) form.append(k, v, v.name || 'content');
      else if (v !== undefined && v !== null) form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    xhr.send(form);
  });
}

// Per-repository facts read once per page load: repositoryInfo and type definitions.
const infoCache = new Map();
export async function repositoryInfo(domain, repo, fresh = false) {
  const k = `${domain}/${repo}`;
  if (fresh || !infoCache.has(k)) {
    const p = call(domain, repoUrl(domain, repo), {params: {cmisselector: 'repositoryInfo'}})
      .then((j) => j[repo] || Object.values(j)[0]);
    infoCache.set(k, p);
    p.catch(() => infoCache.delete(k));
  }
  return infoCache.get(k);
}

const typeCache = new Map();
export function typeDefinition(domain, repo, typeId) {
  const k = `${domain}/${repo}/${typeId}`;
  if (!typeCache.has(k)) {
    const p = call(domain, repoUrl(domain, repo), {params: {cmisselector: 'typeDefinition', typeId}});
    typeCache.set(k, p);
    p.catch(() => typeCache.delete(k));
  }
  return typeCache.get(k);
}

// Forgets what was read about a domain (after sign-in or sign-out).
export function forget(domain) {
  for (const m of [infoCache, typeCache]) for (const k of [...m.keys()]) if (k.startsWith(domain + '/')) m.delete(k);
}
