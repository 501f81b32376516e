import type { Migration } from 'kysely';
import * as m001 from './001_accounts';

// Migrations are listed here (not read from disk) so the built server bundle carries them.
// Append new ones; never edit one that has shipped.
export const migrations: Record<string, Migration> = {
  '001_accounts': m001,
};
