// Messages between a job worker and its backtest compute process (structured-clone IPC).

export type ComputeRequest = { type: 'run'; id: string; screen: unknown; params: unknown } | { type: 'cancel'; id: string };

export type ComputeReply =
  | { type: 'ready' }
  | { type: 'progress'; id: string; fraction: number; message: string }
  | { type: 'done'; id: string; result: string; summary: string; snapshotId: string; engineVersion: string }
  | { type: 'failed'; id: string; kind: 'input' | 'cancelled' | 'error'; message: string };
