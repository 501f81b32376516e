import { randomBytes, randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { addMonths, type IsoDate } from '../dates';
import { getDb } from '../db/db.server';
import type { BacktestsTable, JobStatus } from '../db/schema';
import { conflict, DomainError, notFound, unprocessable } from '../http/errors';
import { cancelJob } from '../jobs/control.server';
import { enqueueJob } from '../jobs/queue.server';
import { getJob, requestCancel, deleteJob, type JobRow } from '../jobs/store.server';
import { getScreener } from '../screener/saved.server';
import { displayColumns, ScreenSchema, type Screen } from '../screener/model';
import { BACKTEST_ENGINE_VERSION, BacktestParamsSchema, type BacktestParams } from './engine';
import { limitProblem } from './limits';
import { listedCompanies, marketDataRange } from './market-inputs.server';
import { BACKTEST_JOB_TIMEOUT_MS, backtestJob } from './run-job.server';
import { keepLight, keptLight } from './kept-lights.server';
import { deleteAllParts, partLoader } from './result-parts.server';
import { watchRun } from './stored-news.server';
import { readLightPart, readStoredLight, readStoredResult, type ResultSummary, type StoredLightPart } from './stored-result';
import type { LoadedResult } from './stored-rows';

// Backtests of a user: asked for from a saved screener (or an inline screen through the API),
// run as jobs, stored with everything needed to reproduce them, owned per user (a foreign id is
// "not found"), shareable through a read-only link.

export const MAX_BACKTESTS_PER_USER = 500;
/** Backtests of one user waiting or running at once. */
export const MAX_PENDING_PER_USER = 5;
const NOT_FOUND = 'Backtest not found.';

export type BacktestStatus = JobStatus;

export type BacktestListItem = {
  id: string;
  name: string;
  screenerId: string | null;
  status: BacktestStatus;
  progress: number;
  createdAt: string;
  params: BacktestParams;
  summary: ResultSummary | null;
};

export type BacktestView = BacktestListItem & {
  message: string | null;
  error: string | null;
  screen: Screen;
  snapshotId: string | null;
  engineVersion: string;
  shareToken: string | null;
  finishedAt: string | null;
  /** The light part, and the holdings and trades read on demand (only the stored parts asked for). */
  result: LoadedResult | null;
};

type Row = Selectable<BacktestsTable>;

export const BacktestNameSchema = z.string().trim().min(1, 'Enter a name').max(200, 'At most 200 characters');

export type NewBacktest = { params: unknown; name?: string } & ({ screenerId: string } | { screen: unknown });

function parseParams(input: unknown): BacktestParams {
  const parsed = BacktestParamsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fields[issue.path.join('.') || 'params'] ??= []).push(issue.message);
  throw unprocessable(parsed.error.issues[0].message, fields);
}

/** Form defaults: the last ten years of the data (fewer when the data is shorter), monthly, top 20. */
export async function defaultParams(): Promise<BacktestParams> {
  const range = await marketDataRange();
  const tenYears = addMonths(range.last, -120);
  const oneYearIn = addMonths(range.first, 12);
  const start = tenYears > oneYearIn ? tenYears : oneYearIn < range.last ? oneYearIn : range.first;
  return BacktestParamsSchema.parse({ start, end: range.last, rebalance: 'monthly', topN: 20 });
}

async function checkAgainstData(params: BacktestParams): Promise<void> {
  const range = await marketDataRange();
  const fields: Record<string, string[]> = {};
  if (params.end < range.first || params.start > range.last) {
    fields.start = [`The market data covers ${range.first} to ${range.last}`];
  }
  if (Object.keys(fields).length) throw unprocessable(`The dates are outside the market data (${range.first} to ${range.last}).`, fields);
}

function clampToData(params: BacktestParams, range: { first: IsoDate; last: IsoDate }): BacktestParams {
  return {
    ...params,
    start: params.start < range.first ? range.first : params.start,
    end: params.end > range.last ? range.last : params.end,
  };
}

export async function createBacktest(userId: string, input: NewBacktest): Promise<BacktestView> {
  const params = parseParams(input.params);
  let screen: Screen;
  let screenerId: string | null = null;
  let name: string;
  if ('screenerId' in input) {
    const saved = await getScreener(userId, input.screenerId);
    screen = saved.screen;
    screenerId = saved.id;
    name = saved.name;
  } else {
    const parsed = ScreenSchema.safeParse(input.screen);
    if (!parsed.success)
      throw unprocessable(`The screen is not valid: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
    screen = parsed.data;
    name = 'Inline screen';
  }
  if (input.name !== undefined) {
    const n = BacktestNameSchema.safeParse(input.name);
    if (!n.success) throw unprocessable(n.error.issues[0].message, { name: [n.error.issues[0].message] });
    name = n.data;
  }
  await checkAgainstData(params);
  const range = await marketDataRange();
  const stored = clampToData(params, range);
  const tooBig = limitProblem(stored, await listedCompanies(stored.start, stored.end), displayColumns(screen).length);
  if (tooBig) throw unprocessable(tooBig, { params: [tooBig] });
  const db = await getDb();
  const counts = await db
    .selectFrom('backtests')
    .leftJoin('jobs', 'jobs.id', 'backtests.job_id')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.sum<number>(eb.case().when('jobs.status', 'in', ['queued', 'running']).then(1).else(0).end()).as('pending'),
    ])
    .where('backtests.user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(counts.all) >= MAX_BACKTESTS_PER_USER)
    throw conflict(`You have ${MAX_BACKTESTS_PER_USER} backtests, the most one account keeps. Delete some first.`);
  if (Number(counts.pending ?? 0) >= MAX_PENDING_PER_USER)
    throw new DomainError(429, `You have ${MAX_PENDING_PER_USER} backtests waiting or running. Wait for one to finish.`, undefined, {
      'Retry-After': '30',
    });
  const id = randomUUID();
  const now = new Date().toISOString();
  const row: Row = {
    id,
    user_id: userId,
    screener_id: screenerId,
    name,
    screen: JSON.stringify({ ...screen, page: 1 }),
    params: JSON.stringify(stored),
    job_id: id,
    snapshot_id: null,
    engine_version: BACKTEST_ENGINE_VERSION,
    summary: null,
    result: null,
    parts_key: null,
    share_token: null,
    created_at: now,
    updated_at: now,
  };
  // The backtest and its job in one commit; the view from what was written (nothing read back).
  const job = await enqueueJob(backtestJob.newJob({ backtestId: id }, { id, userId, timeoutMs: BACKTEST_JOB_TIMEOUT_MS }), {
    with: async (trx) => {
      await trx.insertInto('backtests').values(row).execute();
    },
  });
  return viewOf(row, jobStatus(job), { params: stored, screen: { ...screen, page: 1 } }, null);
}

type RunStatus = { status: BacktestStatus; progress: number; message: string | null; error: string | null; finishedAt: string | null };

/** A run's status as its job row says it. */
function jobStatus(job: JobRow | undefined): RunStatus {
  if (!job)
    return { status: 'failed', progress: 0, message: 'Failed', error: 'The job of this backtest is gone; run it again.', finishedAt: null };
  // The job can end "succeeded" a moment before the result row is visible to this read.
  return { status: job.status, progress: job.progress, message: job.message, error: job.error, finishedAt: job.finished_at };
}

async function statusOf(row: Row): Promise<RunStatus> {
  if (row.result) return { status: 'succeeded', progress: 1, message: 'Done', error: null, finishedAt: row.updated_at };
  return jobStatus(row.job_id ? await getJob(row.job_id) : undefined);
}

/**
 * `light`: the stored light part handed over by the run that stored it (used when it is this row's).
 * `parsed`: the row's screen and parameters as its creation parsed them (they never change after).
 */
async function toView(
  row: Row,
  withResult: boolean,
  light: StoredLightPart | null = null,
  parsed = parsedRequest(row),
): Promise<BacktestView> {
  let result: LoadedResult | null = null;
  if (withResult && row.result) {
    // The parts key names the run whose result the row holds.
    result =
      light && row.parts_key !== null && light.parts?.key === row.parts_key
        ? readStoredLight(light, partLoader(row.id))
        : await readResult(row);
  }
  return viewOf(row, await statusOf(row), parsed, result);
}

async function readResult(row: Row): Promise<LoadedResult> {
  const key = row.parts_key;
  const kept = key === null ? undefined : keptLight(key);
  if (kept) return readStoredLight(kept, partLoader(row.id));
  const text = await resultText(row);
  const part = key === null ? null : await readLightPart(text);
  // A result stored before results were paged is decoded whole, and not kept.
  if (key === null || part === null) return readStoredResult(text, partLoader(row.id));
  return readStoredLight(keepLight(key, part.light, part.bytes), partLoader(row.id));
}

type ParsedRequest = { params: BacktestParams; screen: Screen };

function parsedRequest(row: Row): ParsedRequest {
  return { params: BacktestParamsSchema.parse(JSON.parse(row.params)), screen: ScreenSchema.parse(JSON.parse(row.screen)) };
}

function viewOf(row: Row, s: RunStatus, parsed: { params: BacktestParams; screen: Screen }, result: LoadedResult | null): BacktestView {
  return {
    id: row.id,
    name: row.name,
    screenerId: row.screener_id,
    status: s.status,
    progress: s.progress,
    message: s.message,
    error: s.error,
    createdAt: row.created_at,
    finishedAt: s.finishedAt,
    params: parsed.params,
    screen: parsed.screen,
    snapshotId: row.snapshot_id,
    engineVersion: row.engine_version,
    shareToken: row.share_token,
    summary: row.summary ? (JSON.parse(row.summary) as ResultSummary) : null,
    result,
  };
}

/** Every column but the stored result (a format-3 one can be tens of MB), which only `resultText` reads. */
const LIGHT_COLUMNS = [
  'id',
  'user_id',
  'screener_id',
  'name',
  'screen',
  'params',
  'job_id',
  'snapshot_id',
  'engine_version',
  'summary',
  'parts_key',
  'share_token',
  'created_at',
  'updated_at',
] as const;

/** A row without its result: `result` is only a marker ('stored' or null); the summary is written with the result. */
const light = (r: Omit<Row, 'result'>): Row => ({ ...r, result: r.summary ? STORED : null });
const STORED = 'stored';

async function resultText(row: Row): Promise<string> {
  if (row.result !== STORED) return row.result!;
  const db = await getDb();
  const r = await db.selectFrom('backtests').select('result').where('id', '=', row.id).executeTakeFirst();
  if (!r?.result) throw notFound(NOT_FOUND);
  return r.result;
}

async function ownedRow(userId: string, id: string): Promise<Row> {
  const db = await getDb();
  const row = await db.selectFrom('backtests').select(LIGHT_COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return light(row);
}

export async function getBacktest(userId: string, id: string, opts: { withResult?: boolean } = {}): Promise<BacktestView> {
  return toView(await ownedRow(userId, id), opts.withResult ?? false);
}

/** Whether a backtest's run has ended (succeeded, failed or cancelled). */
export function runEnded(status: BacktestStatus): boolean {
  return status !== 'queued' && status !== 'running';
}

/**
 * Pauses between two looks at a backtest a request waits for: short at first (a small run takes
 * tens of ms), then longer. A run in this process is noticed at once anyway (watchRun); one on
 * another machine's worker within the longest pause, at two small reads a look (every POST waits
 * by default now: at most ~100 looks in its 10 s).
 */
const WAIT_FIRST_PAUSE_MS = 2;
const WAIT_LONGEST_PAUSE_MS = 100;

/**
 * `answer` for the backtest with its result once its run has ended, or as it is after `ms` (or
 * when `signal` aborts: the client went away). Looks at the row again and again — the run may be
 * in another process, on another machine — and hears at once when this process's worker stores
 * its result. Then the answer is prepared while the compute process writes the result, from the
 * row as the write will leave it, and given once the result is stored and the row reads so (a
 * rename or share meanwhile: the answer is made again from the row).
 * `known`: the backtest's screen and parameters when the caller has them (it just created it, and
 * the backtest is queued).
 */
export async function waitForBacktest<T>(
  userId: string,
  id: string,
  ms: number,
  answer: (view: BacktestView) => Promise<T>,
  opts: { signal?: AbortSignal; known?: ParsedRequest } = {},
): Promise<T> {
  const parsed = (row: Row) => opts.known ?? parsedRequest(row);
  const deadline = performance.now() + ms;
  const watch = watchRun(id);
  let light: StoredLightPart | null = null;
  let prepared: { row: Row; answer: Promise<T> } | null = null;
  try {
    // A backtest the caller just created is queued: the first look waits for news or the first
    // pause, so that the worker this process handed the job to claims it and starts the run first
    // (looking first put a read of the row, ~0.3 ms, before every POST's run).
    let look = opts.known === undefined;
    for (let pause = WAIT_FIRST_PAUSE_MS; ; pause = Math.min(WAIT_LONGEST_PAUSE_MS, pause * 1.5), look = true) {
      const left = deadline - performance.now();
      if (look) {
        // A look reads the status alone: parsing the screen every time held up the worker's start.
        const row = await ownedRow(userId, id);
        if (runEnded((await statusOf(row)).status)) {
          if (prepared && sameRow(row, prepared.row)) return await prepared.answer;
          return answer(await toView(row, true, light, parsed(row)));
        }
      }
      if (left <= 0 || opts.signal?.aborted) break;
      const news = await watch.next(Math.min(pause, left));
      if (news?.kind === 'storing') {
        light = news.light as StoredLightPart;
        const now = await ownedRow(userId, id);
        const after: Row = {
          ...now,
          result: STORED,
          parts_key: news.key,
          summary: news.fields.summary,
          snapshot_id: news.fields.snapshotId,
          engine_version: news.fields.engineVersion,
          updated_at: news.fields.storedAt,
        };
        prepared = { row: after, answer: toView(after, true, light, parsed(now)).then(answer) };
        // Not given when the store fails or the row changes: no unhandled rejection then.
        prepared.answer.catch(() => undefined);
      }
      // On news that the result is stored, the look above comes at once: it answers when the row
      // reads as ended (a run that stored nothing goes on being waited for).
    }
  } finally {
    watch.close();
  }
  const row = await ownedRow(userId, id);
  return answer(await toView(row, true, light, parsed(row)));
}

/** Whether two reads of a backtest's row (without its result text) read the same. */
function sameRow(a: Row, b: Row): boolean {
  return a.result === b.result && LIGHT_COLUMNS.every((c) => a[c] === b[c]);
}

export async function listBacktests(userId: string, opts: { screenerId?: string } = {}): Promise<BacktestListItem[]> {
  const db = await getDb();
  let q = db.selectFrom('backtests').select(LIGHT_COLUMNS).where('user_id', '=', userId);
  if (opts.screenerId) q = q.where('screener_id', '=', opts.screenerId);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id').execute();
  const out: BacktestListItem[] = [];
  for (const r of rows) {
    const v = await toView(light(r), false);
    out.push({
      id: v.id,
      name: v.name,
      screenerId: v.screenerId,
      status: v.status,
      progress: v.progress,
      createdAt: v.createdAt,
      params: v.params,
      summary: v.summary,
    });
  }
  return out;
}

/** Stops the job if it is still waiting or running; the backtest stays, marked cancelled. */
export async function cancelBacktest(userId: string, id: string): Promise<BacktestView> {
  const row = await ownedRow(userId, id);
  if (!row.result && row.job_id) await cancelJob(row.job_id).catch(() => undefined);
  return getBacktest(userId, id);
}

export async function deleteBacktest(userId: string, id: string): Promise<void> {
  const row = await ownedRow(userId, id);
  const db = await getDb();
  if (row.job_id) {
    // A running job finds its backtest gone and stops; the job row goes with it.
    await requestCancel(row.job_id);
    await deleteJob(row.job_id);
  }
  if (row.parts_key) {
    // A paged result: readers stop seeing it, then its parts go a few at a time (the row's
    // cascade would delete them all in one long write).
    await db.updateTable('backtests').set({ result: null, summary: null, parts_key: null }).where('id', '=', id).execute();
    await deleteAllParts(id);
  }
  await db.deleteFrom('backtests').where('id', '=', id).where('user_id', '=', userId).execute();
}

export async function setBacktestShared(userId: string, id: string, shared: boolean): Promise<BacktestView> {
  const row = await ownedRow(userId, id);
  const db = await getDb();
  const token = shared ? (row.share_token ?? randomBytes(18).toString('base64url')) : null;
  await db.updateTable('backtests').set({ share_token: token, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  return getBacktest(userId, id);
}

/** A shared backtest, read-only, found by its link's token. */
export async function getSharedBacktest(token: string): Promise<BacktestView> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) throw notFound(NOT_FOUND);
  const db = await getDb();
  const row = await db.selectFrom('backtests').select(LIGHT_COLUMNS).where('share_token', '=', token).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return toView(light(row), true);
}
