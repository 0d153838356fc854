// The repository's change log, newest first (docs/API.md §7.12), with a live mode that
// asks for new events every two seconds while the page shows it.
import {h, fill, prop, formatDate, baseKind} from './dom.js';
import {call, repoUrl, repositoryInfo} from './api.js';
import {hashFor, errorSlot, showError, clearError} from './common.js';

const PAGE = 50;
let poller = null;

export async function changesView(route, info0, stillCurrent) {
  const {domain, repo, query} = route;
  if (poller) { clearInterval(poller); poller = null; }
  const info = await repositoryInfo(domain, repo, true);
  const latest = Number(info.latestChangeLogToken || 0);
  const before = Number(query.get('before')) || latest + 1;  // the page ends before this token
  const tbody = h('tbody');
  const slot = errorSlot();
  let newest = 0;
  const row = (o) => {
    const type = o.changeEventInfo.changeType;
    const id = prop(o, 'objectId');
    return h('tr', {class: `change ${type}`}, h('td', {class: 'num'}, o.token),
      h('td', {}, h('time', {}, formatDate(o.changeEventInfo.changeTime))), h('td', {}, h('span', {class: `badge ${type}`}, type)),
      h('th', {scope: 'row'}, type === 'deleted' ? h('code', {}, id) : h('a', {href: hashFor(domain, repo, [], {id})}, h('code', {}, id))),
      h('td', {}, baseKind(prop(o, 'objectTypeId'))));
  };
  // Events [from, to) in token order, each with its token (consecutive per repository).
  const read = async (from, count) => {
    if (count <= 0) return [];
    const j = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'contentChanges', changeLogToken: from,
      maxItems: count, succinct: 'true'}});
    return j.objects.map((o, i) => ({...o, token: from + i}));
  };
  let from = Math.max(1, before - PAGE);
  let events = [];
  if (latest) {
    try {
      events = await read(from, before - from);
    } catch (e) {
      // Retention dropped the oldest events: start at the oldest kept (named in the message).
      const m = /'?(\d+)'?[^\d]*$/.exec(e.message || '');
      if (e.exception !== 'constraint' || !m) throw e;
      from = Number(m[1]);
      events = await read(from, before - from);
    }
  }
  newest = events.length ? events[events.length - 1].token : latest;
  fill(tbody, [...events].reverse().map(row));
  const live = h('input', {type: 'checkbox', id: 'live'});
  const liveState = h('span', {class: 'hint', 'aria-live': 'polite'});
  live.addEventListener('change', () => {
    if (poller) { clearInterval(poller); poller = null; }
    fill(liveState, live.checked ? 'watching for new events…' : '');
    if (!live.checked) return;
    poller = setInterval(async () => {
      if (!tbody.isConnected || !stillCurrent()) { clearInterval(poller); poller = null; return; }
      try {
        const j = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'contentChanges', changeLogToken: newest + 1,
          maxItems: 100, succinct: 'true'}});
        const fresh = j.objects.map((o, i) => ({...o, token: newest + 1 + i}));
        if (fresh.length) {
          newest += fresh.length;
          tbody.prepend(...fresh.reverse().map(row));
          fill(liveState, `${fresh.length} new event${fresh.length === 1 ? '' : 's'}`);
        }
        clearError(slot);
      } catch (e) { showError(slot, e); }
    }, 2000);
  });
  const older = from > 1 && events.length
    ? h('a', {href: hashFor(domain, repo, [], {view: 'changes', before: from})}, 'Older events →') : null;
  const newer = before <= latest ? h('a', {href: hashFor(domain, repo, [], {view: 'changes'})}, '← Newest') : null;
  void info0;
  return [h('h1', {}, 'Changes'),
    h('div', {class: 'toolbar'}, before > latest ? h('label', {for: 'live', class: 'check'}, live, ' Live: show new events as they happen') : null, liveState),
    slot, info.changesIncomplete ? h('p', {class: 'note'}, 'Older events were dropped by retention (--change-log-max).') : null,
    events.length ? null : h('p', {}, 'No events yet.'),
    h('div', {class: 'scroll'}, h('table', {class: 'changes'}, h('caption', {class: 'visually-hidden'}, 'Change log, newest first'),
      h('thead', {}, h('tr', {}, h('th', {scope: 'col', class: 'num'}, 'Token'), h('th', {scope: 'col'}, 'Time'),
        h('th', {scope: 'col'}, 'Change'), h('th', {scope: 'col'}, 'Object'), h('th', {scope: 'col'}, 'Type'))), tbody)),
    h('nav', {class: 'pager', 'aria-label': 'Change log pages'}, newer, older)];
}
