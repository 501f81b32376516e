// Messages between a job worker and its backtest compute process (structured-clone IPC).

/** `backtestId`: the row the compute process stores the result in (it never crosses the IPC channel). */
export type ComputeRequest =
  { type: 'run'; id: string; backtestId: string; screen: unknown; params: unknown } | { type: 'cancel'; id: string };

export type ComputeReply =
  | { type: 'ready' }
  | { type: 'progress'; id: string; fraction: number; message: string }
  /** `light`: the stored result's light part, decoded (stored-result.ts, StoredLightPart), when it is small. */
  | { type: 'done'; id: string; light?: unknown }
  | { type: 'failed'; id: string; kind: 'input' | 'cancelled' | 'error'; message: string };
