// Search a repository: full text (CONTAINS) or a CMIS QL statement (docs/API.md §12),
// results paged, each linking to its object. The query is in the location.
import {h, fill, field, prop, formatDate, formatSize, baseKind, valueText} from './dom.js';
import {call, repoUrl} from './api.js';
import {hashFor, go, errorSlot, showError} from './common.js';

const PAGE = 50;

// CONTAINS('text') with the text as a QL string literal.
export function containsStatement(text) {
  const literal = text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return 'SELECT cmis:objectId, cmis:name, cmis:objectTypeId, cmis:lastModificationDate, cmis:contentStreamLength '
    + `FROM cmis:document WHERE CONTAINS('${literal}') ORDER BY cmis:name`;
}

export async function searchView(route) {
  const {domain, repo, query} = route;
  const text = query.get('q') || '';
  const ql = query.get('ql') || '';
  const skip = Math.max(0, Number(query.get('skip')) || 0);
  const textInput = h('input', {type: 'search', name: 'q', value: text, autocomplete: 'off', placeholder: 'words, "a phrase", -not'});
  const textForm = h('form', {class: 'card search', role: 'search', 'aria-labelledby': 'fulltext-title',
    onsubmit: (e) => { e.preventDefault(); go(hashFor(domain, repo, [], {view: 'search', q: textInput.value})); }},
    h('h2', {id: 'fulltext-title'}, 'Full text'), field('Find documents containing', textInput),
    h('div', {class: 'buttons'}, h('button', {type: 'submit', class: 'primary'}, 'Search')));
  const qlInput = h('textarea', {name: 'ql', rows: 3, spellcheck: 'false', value: ql || 'SELECT * FROM cmis:document'});
  const qlForm = h('form', {class: 'card search', 'aria-labelledby': 'ql-title',
    onsubmit: (e) => { e.preventDefault(); go(hashFor(domain, repo, [], {view: 'search', ql: qlInput.value})); }},
    h('h2', {id: 'ql-title'}, 'CMIS QL'), field('Statement', qlInput, 'SELECT ... FROM ... WHERE ... ORDER BY ...'),
    h('div', {class: 'buttons'}, h('button', {type: 'submit', class: 'primary'}, 'Run query')));
  const results = h('section', {class: 'results', 'aria-labelledby': 'results-title', 'aria-live': 'polite'});
  const statement = ql || (text ? containsStatement(text) : '');
  if (statement) {
    const slot = errorSlot();
    try {
      const r = await call(domain, repoUrl(domain, repo), {params: {cmisselector: 'query', q: statement, succinct: 'true',
        maxItems: PAGE, skipCount: skip}});
      fill(results, h('h2', {id: 'results-title'}, `${r.numItems.toLocaleString()} result${r.numItems === 1 ? '' : 's'}`),
        resultsTable(domain, repo, r.results, !ql),
        h('nav', {class: 'pager', 'aria-label': 'Result pages'},
          skip > 0 ? h('a', {href: hashFor(domain, repo, [], {view: 'search', q: text, ql, skip: Math.max(0, skip - PAGE)})}, '← Previous') : null,
          r.results.length ? h('span', {}, `${skip + 1}–${skip + r.results.length}`) : null,
          r.hasMoreItems ? h('a', {href: hashFor(domain, repo, [], {view: 'search', q: text, ql, skip: skip + PAGE})}, 'Next →') : null));
    } catch (e) {
      if (e.status === 401) throw e;
      showError(slot, e);
      fill(results, h('h2', {id: 'results-title'}, 'The query failed'), slot);
      // Next to what failed: the form that sent it.
      (ql ? qlForm : textForm).append(results);
      return [h('h1', {}, 'Search'), h('div', {class: 'search-forms'}, textForm, qlForm)];
    }
  }
  return [h('h1', {}, 'Search'), h('div', {class: 'search-forms'}, textForm, qlForm), results];
}

function resultsTable(domain, repo, rows, simple) {
  if (!rows.length) return h('p', {}, 'Nothing found.');
  const link = (r, text) => {
    const id = prop(r, 'objectId');
    return id ? h('a', {href: hashFor(domain, repo, [], {id})}, text) : text;
  };
  if (simple) {
    return h('div', {class: 'scroll'}, h('table', {}, h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Name'),
      h('th', {scope: 'col'}, 'Type'), h('th', {scope: 'col'}, 'Modified'), h('th', {scope: 'col', class: 'num'}, 'Size'))),
    h('tbody', {}, rows.map((r) => h('tr', {}, h('th', {scope: 'row'}, link(r, prop(r, 'name'))),
      h('td', {}, baseKind(prop(r, 'objectTypeId'))), h('td', {}, formatDate(prop(r, 'lastModificationDate'))),
      h('td', {class: 'num'}, formatSize(prop(r, 'contentStreamLength'))))))));
  }
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.succinctProperties || r)))];
  return h('div', {class: 'scroll'}, h('table', {}, h('thead', {}, h('tr', {}, columns.map((c) => h('th', {scope: 'col'}, c)),
    h('th', {scope: 'col'}, 'Open'))),
  h('tbody', {}, rows.map((r) => h('tr', {}, columns.map((c) => h('td', {}, valueText((r.succinctProperties || r)[c]))),
    h('td', {}, link(r, 'open')))))));
}
