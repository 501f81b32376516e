import type { ScreenerPageData } from '~/services/screener/page.server';
import { getMetric } from '~/services/metrics/catalogue';

/** What the screener page's components read: the page data and whether the visitor can save. */
export type ScreenerView = ScreenerPageData & { signedIn: boolean };

export function metricLabel(id: string): string {
  return getMetric(id)?.label ?? id;
}
