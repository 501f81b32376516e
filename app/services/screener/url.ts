import { formatNumber } from './expression';
import { metricIdOrText } from './metric-names';
import { parseNumberInput } from './number-input';
import { ruleProblem } from './rule-messages';
import { MAX_COLUMNS, MAX_RANK_PARTS, MAX_RULES, ScreenSchema, isExpressionError, ruleFromText, ruleToText, type Screen } from './model';

// A screen as a query string (Finviz-style shareable URLs, and the GET form of /screener): every
// field is a plain, readable parameter; rules are their text (`r=pe_ttm < 15`). Defaults are left
// out and the order is fixed, so the same screen always gives the same URL.
//
//   exchange, sector, industry  repeated            mcap_min, mcap_max   numbers (USD)
//   delisted=1                  include delisted    r                    repeated rule text
//   rank=metric:dir[:weight]    repeated            col                  repeated metric id
//                                                   cols                 a,b,c (read only; written as col)
//   sort=key:dir                limit=N             page=N

export type ScreenQueryError = { param: string; message: string };
export type ScreenQueryResult = { ok: true; screen: Screen } | { ok: false; errors: ScreenQueryError[]; screen: Screen };

export function screenToSearchParams(screen: Screen): URLSearchParams {
  const p = new URLSearchParams();
  const u = screen.universe;
  for (const x of u.exchanges) p.append('exchange', x);
  for (const x of u.sectors) p.append('sector', x);
  for (const x of u.industries) p.append('industry', x);
  if (u.marketCapMin !== null) p.append('mcap_min', formatNumber(u.marketCapMin));
  if (u.marketCapMax !== null) p.append('mcap_max', formatNumber(u.marketCapMax));
  if (u.includeDelisted) p.append('delisted', '1');
  for (const r of screen.rules) p.append('r', ruleToText(r));
  for (const part of screen.ranking)
    p.append('rank', `${part.metric}:${part.direction}${part.weight === 1 ? '' : `:${formatNumber(part.weight)}`}`);
  for (const c of screen.columns) p.append('col', c);
  if (screen.sort) p.append('sort', `${screen.sort.key}:${screen.sort.dir}`);
  if (screen.limit !== null) p.append('limit', String(screen.limit));
  if (screen.page !== 1) p.append('page', String(screen.page));
  return p;
}

export function screenToQuery(screen: Screen): string {
  return screenToSearchParams(screen).toString();
}

/**
 * Reads a screen from query parameters. Never throws: bad parameters are reported with what is
 * wrong (and the rest of the screen still comes back, so the page can show the form as typed).
 */
export function screenFromSearchParams(params: URLSearchParams): ScreenQueryResult {
  const errors: ScreenQueryError[] = [];
  const input: Record<string, unknown> = {};
  const universe: Record<string, unknown> = {
    exchanges: params.getAll('exchange').filter((x) => x.trim() !== ''),
    sectors: params.getAll('sector').filter((x) => x.trim() !== ''),
    industries: params.getAll('industry').filter((x) => x.trim() !== ''),
    includeDelisted: ['1', 'true', 'on'].includes(params.get('delisted') ?? ''),
  };
  for (const [param, key] of [
    ['mcap_min', 'marketCapMin'],
    ['mcap_max', 'marketCapMax'],
  ] as const) {
    const raw = params.get(param);
    if (raw === null || raw.trim() === '') continue;
    const n = parseNumberInput(raw);
    const bound = param === 'mcap_min' ? 'Market cap at least' : 'Market cap at most';
    if (!n.ok) errors.push({ param, message: `${bound}: ${n.message}` });
    else universe[key] = n.value;
  }
  input.universe = universe;

  const ruleTexts = params.getAll('r').filter((t) => t.trim() !== '');
  if (ruleTexts.length > MAX_RULES)
    errors.push({ param: 'r', message: `A screen has at most ${MAX_RULES} rules (got ${ruleTexts.length})` });
  const rules: unknown[] = [];
  ruleTexts.slice(0, MAX_RULES).forEach((text, i) => {
    try {
      rules.push(ruleFromText(text));
    } catch (e) {
      if (!isExpressionError(e)) throw e;
      errors.push({ param: `r.${i}`, message: ruleProblem(e, text.trim(), i) });
    }
  });
  input.rules = rules;

  const rankParts = params.getAll('rank').filter((t) => t.trim() !== '');
  if (rankParts.length > MAX_RANK_PARTS) errors.push({ param: 'rank', message: `At most ${MAX_RANK_PARTS} ranking metrics` });
  input.ranking = rankParts.slice(0, MAX_RANK_PARTS).map((raw) => {
    const [metric, direction = 'desc', weight = '1'] = raw.split(':');
    return { metric, direction, weight: Number(weight) };
  });
  // `col` repeated (canonical) or `cols` as one comma-separated list (ids or labels).
  const listed = params.getAll('cols').flatMap((list) => list.split(',').map(metricIdOrText));
  const cols = [...params.getAll('col'), ...listed].filter((t) => t.trim() !== '');
  if (cols.length > MAX_COLUMNS) errors.push({ param: 'col', message: `At most ${MAX_COLUMNS} columns` });
  input.columns = [...new Set(cols.slice(0, MAX_COLUMNS))];
  const sort = params.get('sort');
  if (sort) {
    const [key, dir = 'asc'] = sort.split(':');
    input.sort = { key, dir };
  }
  for (const key of ['limit', 'page'] as const) {
    const raw = params.get(key);
    if (raw === null || raw.trim() === '') continue;
    input[key] = Number(raw);
  }

  const parsed = ScreenSchema.safeParse(input);
  if (parsed.success && errors.length === 0) return { ok: true, screen: parsed.data };
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      errors.push({ param: paramOfPath(issue.path), message: `${labelOfPath(issue.path)}: ${issue.message}` });
  }
  return { ok: false, errors, screen: salvage(input) };
}

/** The valid part of a broken screen, so a page can redisplay what was typed. */
function salvage(input: Record<string, unknown>): Screen {
  const keep: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const one = ScreenSchema.safeParse({ [k]: v });
    if (one.success) keep[k] = v;
  }
  if (Array.isArray(input.rules)) keep.rules = input.rules.filter((r) => ScreenSchema.safeParse({ rules: [r] }).success);
  const result = ScreenSchema.safeParse(keep);
  return result.success ? result.data : ScreenSchema.parse({});
}

const PARAM_OF: Record<string, string> = {
  universe: 'universe',
  rules: 'r',
  ranking: 'rank',
  columns: 'col',
  sort: 'sort',
  limit: 'limit',
  page: 'page',
};

function paramOfPath(path: (string | number)[]): string {
  if (path[0] === 'universe') {
    const k = path[1];
    return k === 'marketCapMin'
      ? 'mcap_min'
      : k === 'marketCapMax'
        ? 'mcap_max'
        : k === 'exchanges'
          ? 'exchange'
          : k === 'sectors'
            ? 'sector'
            : k === 'industries'
              ? 'industry'
              : 'universe';
  }
  const base = PARAM_OF[String(path[0])] ?? String(path[0] ?? 'screen');
  return typeof path[1] === 'number' ? `${base}.${path[1]}` : base;
}

function labelOfPath(path: (string | number)[]): string {
  const head = String(path[0] ?? 'Screen');
  if (head === 'rules' && typeof path[1] === 'number') return `Rule ${path[1] + 1}`;
  if (head === 'ranking' && typeof path[1] === 'number') return `Ranking ${path[1] + 1}`;
  if (head === 'columns' && typeof path[1] === 'number') return `Column ${path[1] + 1}`;
  if (head === 'universe') return paramOfPath(path).replace('_', ' ');
  return head.charAt(0).toUpperCase() + head.slice(1);
}

/** JSON form: the zod schema itself; parse failures become {path, message} list. */
export function screenFromJson(value: unknown): ScreenQueryResult {
  const parsed = ScreenSchema.safeParse(value);
  if (parsed.success) return { ok: true, screen: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues
      .slice(0, 20)
      .map((i) => ({ param: i.path.join('.') || 'screen', message: `${labelOfPath(i.path)}: ${i.message}` })),
    screen: ScreenSchema.parse({}),
  };
}
