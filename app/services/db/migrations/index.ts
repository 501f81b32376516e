import type { Migration } from 'kysely';
import * as m001 from './001_accounts';
import * as m002 from './002_screeners_watchlists';
import * as m003 from './003_backtests_jobs';
import * as m004 from './004_billing';
import * as m005 from './005_column_sets';
import * as m006 from './006_backtest_result_parts';
import * as m007 from './007_page_versions';

// Migrations are listed here (not read from disk) so the built server bundle carries them.
// Append new ones; never edit one that has shipped.
export const migrations: Record<string, Migration> = {
  '001_accounts': m001,
  '002_screeners_watchlists': m002,
  '003_backtests_jobs': m003,
  '004_billing': m004,
  '005_column_sets': m005,
  '006_backtest_result_parts': m006,
  '007_page_versions': m007,
};
