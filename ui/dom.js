// Small DOM helpers: element building, formatting, and CMIS property access that works
// in both variants (A spells `name`, B `cmis:name`).

// h('button', {class: 'x', onclick: f}, 'text', child, ...): an element. Attributes
// whose value is false, null or undefined are left out; `on*` functions become listeners.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'selected' || k === 'disabled' || k === 'multiple') el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

// Replaces the children of `el`.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let uid = 0;
export function nextId(prefix = 'f') { return `${prefix}${++uid}`; }

// A labelled form field: label text, then the control (given an id).
export function field(label, control, hint) {
  if (!control.id) control.id = nextId();
  return h('div', {class: 'field'}, h('label', {for: control.id}, label), control,
           hint ? h('small', {class: 'hint'}, hint) : null);
}

export function formatSize(n) {
  if (n === null || n === undefined || n === '') return '';
  n = Number(n);
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let u = -1;
  do { n /= 1024; u++; } while (n >= 1024 && u < units.length - 1);
  return `${n.toFixed(n < 10 ? 1 : 0)} ${units[u]}`;
}

export function formatDate(ms) {
  if (ms === null || ms === undefined || ms === '') return '';
  const d = new Date(typeof ms === 'string' && /^-?\d+$/.test(ms) ? Number(ms) : ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  return d.toLocaleString(undefined, {year: 'numeric', month: 'short', day: 'numeric',
                                      hour: '2-digit', minute: '2-digit'});
}

// The value of built-in property `id` ("name", "objectId": unprefixed) of a CMIS object
// answered succinctly, in either variant's spelling.
export function prop(obj, id) {
  const p = obj && (obj.succinctProperties || obj);
  if (!p) return undefined;
  if (('cmis:' + id) in p) return p['cmis:' + id];
  return p[id];
}

// "document" for "cmis:document" and "document"; custom type ids unchanged.
export function baseKind(typeId) {
  return typeof typeId === 'string' && typeId.startsWith('cmis:') ? typeId.slice(5) : typeId;
}

// Text for a property value: lists joined, datetimes formatted, null as an empty string.
export function valueText(v, type) {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map((x) => valueText(x, type)).join(', ');
  if (type === 'datetime') return formatDate(v);
  return String(v);
}

// Both spellings of a built-in property id: "cmis:name" -> ["cmis:name", "name"].
export function spellings(id) {
  return id.startsWith('cmis:') ? [id, id.slice(5)] : [id];
}

// An icon from icons/ (decorative: the text beside it says the same).
export function icon(name) {
  return h('img', {class: 'icon', src: `icons/${name}.svg`, alt: '', width: 16, height: 16});
}
