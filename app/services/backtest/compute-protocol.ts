// Messages between a job worker and its backtest compute process (structured-clone IPC).

import type { ResultFields } from './result-parts.server';

/** `backtestId`: the row the compute process stores the result in (it never crosses the IPC channel). */
export type ComputeRequest =
  { type: 'run'; id: string; backtestId: string; screen: unknown; params: unknown } | { type: 'cancel'; id: string };

export type ComputeReply =
  | { type: 'ready' }
  | { type: 'progress'; id: string; fraction: number; message: string }
  /**
   * Sent as the result starts being stored, when its light part is small: `light` is that part
   * decoded (stored-result.ts, StoredLightPart), `key` the parts' key, `fields` what the row's
   * other columns will read. A request waiting for the run prepares its answer meanwhile.
   */
  | { type: 'storing'; id: string; key: string; fields: ResultFields; light: unknown }
  /** The result is stored. */
  | { type: 'done'; id: string }
  | { type: 'failed'; id: string; kind: 'input' | 'cancelled' | 'error'; message: string };
