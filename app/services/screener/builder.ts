import { quote } from './expression';
import { metricIdOrText } from './metric-names';
import { screenFromSearchParams, screenToSearchParams } from './url';

// The no-JavaScript screen builder: the /screener form is a GET form, and its "Add …" and
// "Remove" buttons submit builder parameters (add=value&add_metric=pe_ttm&…). This turns such a
// request into the canonical screen URL to redirect to, so every change is a plain submit and
// the address bar always holds a clean, shareable screen.

/** Parameters that only exist on the page, kept across edits. */
export const PAGE_PARAMS = ['as_of', 'saved', 'size'] as const;

const BUILDER_PARAMS = [
  'add',
  'remove',
  'remove_col',
  'remove_rank',
  'add_metric',
  'add_op',
  'add_value',
  'add_value2',
  'cmp_left',
  'cmp_op',
  'cmp_factor',
  'cmp_right',
  'rank_metric',
  'rank_side',
  'rank_pct',
  'rank_within',
  'cat_field',
  'cat_op',
  'cat_values',
  'expr_text',
  'add_col',
  'rank_add_metric',
  'rank_add_dir',
  'rank_add_weight',
  'run',
];

const get = (p: URLSearchParams, k: string) => (p.get(k) ?? '').trim();
/** A metric field: its label ("Market cap") or id, as the id the screen's text uses. */
const metric = (p: URLSearchParams, k: string) => metricIdOrText(get(p, k));

function ruleFromBuilder(p: URLSearchParams, kind: string): string | null {
  switch (kind) {
    case 'value': {
      const op = get(p, 'add_op') || '>';
      if (op === 'between') return `${metric(p, 'add_metric')} between ${get(p, 'add_value')} and ${get(p, 'add_value2')}`;
      return `${metric(p, 'add_metric')} ${op} ${get(p, 'add_value')}`;
    }
    case 'compare': {
      const factor = get(p, 'cmp_factor');
      const right = factor === '' || factor === '1' ? metric(p, 'cmp_right') : `${factor} * ${metric(p, 'cmp_right')}`;
      return `${metric(p, 'cmp_left')} ${get(p, 'cmp_op') || '>'} ${right}`;
    }
    case 'rank':
      return `${metric(p, 'rank_metric')} in ${get(p, 'rank_side') || 'top'} ${get(p, 'rank_pct') || '20'}% of ${get(p, 'rank_within') || 'universe'}`;
    case 'category': {
      const values = get(p, 'cat_values')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      return `${get(p, 'cat_field') || 'sector'} ${get(p, 'cat_op') === 'not_in' ? 'not in' : 'in'} [${values.map(quote).join(', ')}]`;
    }
    case 'expr':
      return get(p, 'expr_text') || null;
    default:
      return null;
  }
}

function removeAt(p: URLSearchParams, key: string, index: number): void {
  const all = p.getAll(key);
  p.delete(key);
  all.forEach((v, i) => {
    if (i !== index) p.append(key, v);
  });
}

/**
 * The URL to redirect to when the request carries builder parameters, else null. Rules that do
 * not parse are kept as typed (so their error shows next to them); a valid screen is rewritten to
 * its canonical query.
 */
/**
 * The screen part of the builder form's fields: without the add/remove builder inputs and the
 * empty fields, so it is a canonical screen query that needs no redirect (live results use it).
 */
export function screenQueryFromForm(entries: Iterable<[string, FormDataEntryValue]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of entries) {
    if (typeof v !== 'string' || v.trim() === '' || BUILDER_PARAMS.includes(k) || k === 'run') continue;
    params.append(k, v);
  }
  return params;
}

export function builderRedirect(pathname: string, search: URLSearchParams): string | null {
  if (!BUILDER_PARAMS.some((k) => search.has(k))) return null;
  const p = new URLSearchParams(search);
  // Empty inputs of the GET form ("mcap_min=") are not part of the screen.
  for (const [k, v] of [...p.entries()]) if (v.trim() === '' && !BUILDER_PARAMS.includes(k)) p.delete(k);
  const add = get(p, 'add');
  if (add === 'column') {
    const col = metric(p, 'add_col');
    if (col && !p.getAll('col').includes(col)) p.append('col', col);
  } else if (add === 'ranking') {
    const id = metric(p, 'rank_add_metric');
    const weight = get(p, 'rank_add_weight');
    if (id) p.append('rank', `${id}:${get(p, 'rank_add_dir') || 'desc'}${weight && weight !== '1' ? `:${weight}` : ''}`);
  } else if (add) {
    const text = ruleFromBuilder(p, add);
    if (text) p.append('r', text);
  }
  const removeIndex = (k: string) => {
    const raw = p.get(k);
    if (raw === null) return;
    const i = Number(raw);
    if (Number.isInteger(i) && i >= 0) removeAt(p, k === 'remove' ? 'r' : k === 'remove_col' ? 'col' : 'rank', i);
  };
  removeIndex('remove');
  removeIndex('remove_col');
  removeIndex('remove_rank');
  const changed = add !== '' || p.has('remove') || p.has('remove_col') || p.has('remove_rank');
  for (const k of BUILDER_PARAMS) p.delete(k);
  // An edit starts again at page 1.
  if (changed) p.delete('page');
  const parsed = screenFromSearchParams(p);
  let query: URLSearchParams;
  if (parsed.ok) {
    query = screenToSearchParams(parsed.screen);
    for (const k of PAGE_PARAMS) {
      const v = p.get(k);
      if (v) query.set(k, v);
    }
  } else {
    query = p;
  }
  const qs = query.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/** The screen's own address without a pending dialog (`?modal=`): where a closed dialog goes back to. */
export function screenerReturnPath(url: URL): string {
  const p = new URLSearchParams(url.search);
  p.delete('modal');
  const qs = p.toString();
  return qs ? `${url.pathname}?${qs}` : url.pathname;
}
