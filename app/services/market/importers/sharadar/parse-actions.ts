import type { CorporateActionRecord } from '../../store/records';
import { readCsvTable } from '../csv-table';
import { REQUIRED_COLUMNS } from './tables';

// ACTIONS: one row per event. Each event is stored once, under the security it happened to:
// a ticker change appears twice in Sharadar (tickerchangefrom on the new ticker, tickerchangeto on
// the old one), and only the first is kept. Events about other parties (acquisitionof, spinoff
// parents, relations) belong to the other security's own rows and are skipped.

const MAPPED: Record<string, CorporateActionRecord['action']> = {
  dividend: 'dividend',
  split: 'split',
  delisted: 'delisting',
  regulatorydelisting: 'delisting',
  voluntarydelisting: 'delisting',
  acquisitionby: 'acquisition',
  bankruptcyliquidation: 'bankruptcy',
  tickerchangefrom: 'ticker_change',
  listed: 'listing',
};

export type ActionsResult = { actions: CorporateActionRecord[]; skipped: Map<string, number> };

export function parseActions(
  text: string,
  file: string,
  byTicker: Map<string, number>,
  byRelatedTicker: Map<string, number>,
): ActionsResult {
  const t = readCsvTable(text, file, REQUIRED_COLUMNS.ACTIONS);
  const actions: CorporateActionRecord[] = [];
  const skipped = new Map<string, number>();
  for (const row of t.rows) {
    const kind = t.text(row, 'action').toLowerCase();
    if (kind === '') t.fail(row, 'empty action');
    const date = t.date(row, 'date', true);
    const ticker = t.text(row, 'ticker').toUpperCase();
    const action = MAPPED[kind];
    if (!action) {
      skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
      continue;
    }
    const permaticker = byTicker.get(ticker) ?? byRelatedTicker.get(ticker);
    if (permaticker === undefined) t.fail(row, `unknown ticker "${ticker}" (not in TICKERS)`);
    const value = t.number(row, 'value');
    if ((action === 'dividend' || action === 'split') && (value === null || value <= 0)) {
      t.fail(row, `${kind} value "${t.text(row, 'value')}" must be a positive number`);
    }
    const contra = t.text(row, 'contraticker');
    const contraName = t.has('contraname') ? t.text(row, 'contraname') : '';
    const detail =
      action === 'ticker_change'
        ? contra
          ? `from ${contra}`
          : null
        : action === 'acquisition'
          ? [contra, contraName].filter(Boolean).join(' ') || null
          : null;
    actions.push({
      permaticker: permaticker!,
      date,
      action,
      // Deal sizes of acquisitions are not a per-share price; only dividends and splits keep a value.
      value: action === 'dividend' || action === 'split' ? value : null,
      detail,
      source: 'sharadar',
    });
  }
  return { actions, skipped };
}
