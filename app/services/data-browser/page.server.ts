import { getMetric } from '../metrics/catalogue';
import { MAX_COMPANIES, parseView, viewQuery, type ViewParse } from './data-browser';
import { browseMetric, type BrowserData } from './data-browser.server';

// What /data-browser/{permaticker}/{metric} shows for its URL: the table and chart data, the
// reasons the parameters are refused, or the canonical address to go to after the "add a
// company" and "metric" GET forms (so every view has one stable, shareable URL). Company lookup
// is the company folder's (a layer above this one), so the page hands it in.

type View = Extract<ViewParse, { ok: true }>['view'];

export type DataBrowserPage =
  | { kind: 'view'; view: View; result: BrowserData; addError: string | null }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'redirect'; to: string }
  | { kind: 'not-found' };

export async function dataBrowserPage(
  rawPermaticker: string | undefined,
  rawMetric: string | undefined,
  search: URLSearchParams,
  resolveCompany: (tickerOrPermaticker: string) => Promise<number | null>,
): Promise<DataBrowserPage> {
  const permaticker = /^[1-9]\d{0,8}$/.test(rawPermaticker ?? '') ? Number(rawPermaticker) : null;
  const metric = getMetric(rawMetric ?? '');
  if (permaticker === null || !metric) return { kind: 'not-found' };
  const parsed = parseView(search);
  if (!parsed.ok) return { kind: 'invalid', errors: parsed.errors };
  const view = parsed.view;
  const metricChoice = search.get('metric_id');
  if (view.add !== null || metricChoice !== null) {
    let compare = view.compare;
    if (view.add !== null) {
      const added = await resolveCompany(view.add);
      // The view stays as it was, with the reason beside the box the text was typed in.
      if (added === null)
        return {
          kind: 'view',
          view: { ...view, add: null },
          result: await browseMetric(permaticker, metric.id, view),
          addError: `No company matches “${view.add.slice(0, 40)}”: try a ticker, a name or a permaticker.`,
        };
      if (added !== permaticker && !compare.includes(added)) compare = [...compare, added];
    }
    const nextMetric = getMetric(metricChoice ?? '') ? (metricChoice as string) : metric.id;
    return {
      kind: 'redirect',
      to: `/data-browser/${permaticker}/${nextMetric}${viewQuery({ ...view, compare: compare.slice(0, MAX_COMPANIES - 1) })}`,
    };
  }
  return { kind: 'view', view, result: await browseMetric(permaticker, metric.id, view), addError: null };
}
