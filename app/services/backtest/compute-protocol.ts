// Messages between a job worker and its backtest compute process (structured-clone IPC).

import type { ResultFields } from './result-parts.server';

/**
 * `backtestId`: the row the compute process stores the result in (it never crosses the IPC
 * channel); `key`: the run's key, under which its result's parts are stored (chosen by the job, so
 * that a run that stops can remove its own parts and no other run's).
 */
export type ComputeRequest =
  { type: 'run'; id: string; backtestId: string; key: string; screen: unknown; params: unknown } | { type: 'cancel'; id: string };

export type ComputeReply =
  | { type: 'ready' }
  | { type: 'progress'; id: string; fraction: number; message: string }
  /**
   * Sent as the result starts being stored, when its light part is small: `light` is that part
   * decoded (stored-result.ts, StoredLightPart), `key` the parts' key, `fields` what the row's
   * other columns will read. A request waiting for the run prepares its answer meanwhile.
   */
  | { type: 'storing'; id: string; key: string; fields: ResultFields; light: unknown }
  /**
   * The run ended and its result was offered to the row: `stored` says whether the row took it
   * (not when the backtest was deleted meanwhile, another run stored one first, or another
   * attempt removed some of this run's parts before they were attached).
   */
  | { type: 'done'; id: string; stored: boolean }
  | { type: 'failed'; id: string; kind: 'input' | 'cancelled' | 'error'; message: string };
