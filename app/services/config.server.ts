import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// Environment is read and validated once; everything else asks this module.
// Secrets that an operator did not set are generated once into DATA_DIR so a
// first-time user is never blocked.

export const GTM_ID_PATTERN = /^GTM-[A-Z0-9]+$/;

const flag = z
  .string()
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  MARKET_DB: z.string().optional(),
  // The app's read-only DuckDB connection to MARKET_DB: its buffer memory and worker threads
  // (DuckDB's defaults, 80 % of the machine's memory and one thread per core, unless set).
  MARKET_DB_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'a size such as 256MB or 1GB')
    .optional(),
  MARKET_DB_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Quarry <no-reply@quarry.localhost>'),
  SESSION_SECRET: z.string().optional(),
  APP_URL: z.string().url().optional(),
  GTM_ID: z.string().optional(),
  TRUST_PROXY: flag,
  SEC_USER_AGENT: z.string().optional(),
  SEC_EDGAR_URL: z.string().url().optional(),
  // Online market data providers: keys, base URLs (proxies, tests) and plan limits.
  TIINGO_API_KEY: z.string().optional(),
  TIINGO_API_URL: z.string().url().default('https://api.tiingo.com'),
  TIINGO_TICKERS_URL: z.string().url().optional(),
  // The free plan's published limits; a paid plan raises them.
  TIINGO_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(50),
  TIINGO_REQUESTS_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(1000),
  NASDAQ_DATA_LINK_API_KEY: z.string().optional(),
  NASDAQ_DATA_LINK_API_URL: z.string().url().default('https://data.nasdaq.com'),
  // The daily refresh: HH:MM in America/New_York, or off.
  DATA_REFRESH_AT: z
    .string()
    .regex(/^(off|([01]\d|2[0-3]):[0-5]\d)$/, 'HH:MM (America/New_York) or off')
    .default('22:30'),
  // Jobs (backtests): a worker owns a running job for JOB_LEASE_MS unless it renews the lease, so
  // a dead worker's job is taken over that long after it died. JOBS_IN_APP=0 leaves all jobs to
  // `npm run worker` processes.
  JOB_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  // Megabytes of rendered company pages each web process keeps per signed-in reader
  // (http/page-cache.server.ts); 0 turns the cache off.
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  JOBS_IN_APP: z
    .string()
    .optional()
    .transform((v) => v !== '0' && v !== 'false'),
  // Every Redis key of a deployment starts with REDIS_PREFIX (rate limits, and the job queue
  // unless JOBS_QUEUE_PREFIX says otherwise), so deployments can share one Redis server.
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,60}$/, 'letters, digits, _ : - (at most 60)')
    .default('quarry'),
  JOBS_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,60}$/, 'letters, digits, _ : - (at most 60)')
    .optional(),
  // Guest mode: visitors without an account browse the data browser.
  GUEST_MODE: z
    .string()
    .optional()
    .transform((v) => v !== '0' && v !== 'false'),
  FIRST_USER_IS_ADMIN: flag,
  BILLING_PROVIDER: z.string().optional(),
  BILLING_API_KEY: z.string().optional(),
  BILLING_STORE_ID: z.string().optional(),
  BILLING_VARIANT_IDS: z.string().optional(),
  BILLING_WEBHOOK_SECRET: z.string().optional(),
  BILLING_API_URL: z.string().optional(),
  BILLING_OVERLAY_SCRIPT_URL: z.string().optional(),
  BILLING_CHECKOUT_ORIGIN: z.string().optional(),
  // Profile pictures in an S3-compatible bucket instead of DATA_DIR/uploads.
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_PREFIX: z.string().optional(),
});

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  marketDb: string;
  /** DuckDB settings of the app's read-only market connection (the CLI and writers keep DuckDB's defaults). */
  marketReader: { memoryLimit?: string; threads?: number };
  /** Bytes of rendered pages a web process keeps (http/page-cache.server.ts); 0: no page cache. */
  pageCacheBytes: number;
  smtpUrl?: string;
  mailFrom: string;
  sessionSecrets: string[];
  appUrl: string;
  gtmId?: string;
  trustProxy: boolean;
  secUserAgent?: string;
  /** data.sec.gov, or a proxy / test server speaking its API. */
  secEdgarUrl: string;
  /** www.sec.gov (the bulk archives, the ticker list), or the same proxy / test server. */
  secArchivesUrl: string;
  providers: ProvidersConfig;
  jobs: { leaseMs: number; inApp: boolean; queuePrefix: string };
  guestMode: boolean;
  firstUserIsAdmin: boolean;
  billingEnabled: boolean;
  /** Set when billing is configured (all of BILLING_PROVIDER … BILLING_WEBHOOK_SECRET). */
  billing: BillingConfig | null;
  /** Set when profile pictures go to an S3-compatible bucket (S3_BUCKET and its keys). */
  pictureBucket: S3BucketConfig | null;
};

export type ProvidersConfig = {
  tiingo: { apiKey?: string; apiUrl: string; tickersUrl: string; perHour: number; perDay: number };
  nasdaqDataLink: { apiKey?: string; apiUrl: string };
  /** Daily refresh time in America/New_York, or null when DATA_REFRESH_AT=off. */
  refreshAt: { hour: number; minute: number } | null;
};

const TIINGO_DEFAULT_URL = 'https://api.tiingo.com';
// Tiingo serves its ticker list as a static file beside the API; behind a proxy (or a test
// server) the same path is asked of TIINGO_API_URL.
const TIINGO_DEFAULT_TICKERS_URL = 'https://apimedia.tiingo.com/docs/tiingo/daily/supported_tickers.zip';

function providersConfig(e: z.infer<typeof EnvSchema>): ProvidersConfig {
  const tiingoUrl = e.TIINGO_API_URL.replace(/\/$/, '');
  const [hour, minute] = e.DATA_REFRESH_AT === 'off' ? [] : e.DATA_REFRESH_AT.split(':').map(Number);
  return {
    tiingo: {
      apiKey: e.TIINGO_API_KEY || undefined,
      apiUrl: tiingoUrl,
      tickersUrl:
        e.TIINGO_TICKERS_URL ??
        (tiingoUrl === TIINGO_DEFAULT_URL ? TIINGO_DEFAULT_TICKERS_URL : `${tiingoUrl}/docs/tiingo/daily/supported_tickers.zip`),
      perHour: e.TIINGO_REQUESTS_PER_HOUR,
      perDay: e.TIINGO_REQUESTS_PER_DAY,
    },
    nasdaqDataLink: { apiKey: e.NASDAQ_DATA_LINK_API_KEY || undefined, apiUrl: e.NASDAQ_DATA_LINK_API_URL.replace(/\/$/, '') },
    refreshAt: hour === undefined ? null : { hour, minute },
  };
}

export type S3BucketConfig = {
  /** Path-style addressing: objects live at `${endpoint}/${bucket}/${key}`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every object key ("avatars/" unless set). */
  prefix: string;
};

export type BillingConfig = {
  provider: 'lemonsqueezy';
  apiKey: string;
  storeId: string;
  /** The plans offered, in the order the operator listed them. */
  variantIds: string[];
  webhookSecret: string;
  apiUrl: string;
  /** Lemon.js, loaded by the browser to open the checkout overlay. */
  overlayScriptUrl: string;
  /** Origin(s) of the checkout pages the overlay frames (CSP frame-src). */
  checkoutOrigin: string;
};

const BILLING_REQUIRED = [
  'BILLING_PROVIDER',
  'BILLING_API_KEY',
  'BILLING_STORE_ID',
  'BILLING_VARIANT_IDS',
  'BILLING_WEBHOOK_SECRET',
] as const;

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} "${value}" is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be an http(s) URL.`);
  return value.replace(/\/$/, '');
}

/** Billing is off unless every required variable is set; half a configuration is an error, not "off". */
function billingConfig(e: z.infer<typeof EnvSchema>): BillingConfig | null {
  const set = BILLING_REQUIRED.filter((k) => (e[k] ?? '').trim() !== '');
  if (set.length === 0) return null;
  const missing = BILLING_REQUIRED.filter((k) => !set.includes(k));
  if (missing.length > 0) {
    throw new ConfigError(
      `Billing is half configured: set ${missing.join(', ')} too, or unset every BILLING_* variable to turn billing off.`,
    );
  }
  const provider = e.BILLING_PROVIDER!.trim().toLowerCase();
  if (provider !== 'lemonsqueezy') throw new ConfigError(`BILLING_PROVIDER "${e.BILLING_PROVIDER}" is not supported; use "lemonsqueezy".`);
  const storeId = e.BILLING_STORE_ID!.trim();
  if (!/^\d{1,20}$/.test(storeId)) throw new ConfigError(`BILLING_STORE_ID "${storeId}" must be the numeric store id.`);
  const variantIds = [
    ...new Set(
      e
        .BILLING_VARIANT_IDS!.split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  const badVariant = variantIds.find((v) => !/^\d{1,20}$/.test(v));
  if (variantIds.length === 0 || badVariant !== undefined) {
    throw new ConfigError(
      `BILLING_VARIANT_IDS must be a comma-separated list of numeric variant ids${badVariant ? ` ("${badVariant}" is not one)` : ''}.`,
    );
  }
  const webhookSecret = e.BILLING_WEBHOOK_SECRET!;
  // Lemon Squeezy's signing secrets are 6 to 40 characters.
  if (webhookSecret.length < 6) throw new ConfigError('BILLING_WEBHOOK_SECRET must be at least 6 characters long.');
  return {
    provider: 'lemonsqueezy',
    apiKey: e.BILLING_API_KEY!.trim(),
    storeId,
    variantIds,
    webhookSecret,
    apiUrl: httpUrl('BILLING_API_URL', e.BILLING_API_URL || 'https://api.lemonsqueezy.com'),
    overlayScriptUrl: httpUrl('BILLING_OVERLAY_SCRIPT_URL', e.BILLING_OVERLAY_SCRIPT_URL || 'https://app.lemonsqueezy.com/js/lemon.js'),
    checkoutOrigin: checkoutOrigin(e.BILLING_CHECKOUT_ORIGIN || 'https://*.lemonsqueezy.com'),
  };
}

const S3_REQUIRED = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/** The picture bucket, or null (pictures on local disk); half a configuration is an error. */
function pictureBucketConfig(e: z.infer<typeof EnvSchema>): S3BucketConfig | null {
  const set = S3_REQUIRED.filter((k) => (e[k] ?? '').trim() !== '');
  if (set.length === 0) {
    const stray = (['S3_ENDPOINT', 'S3_REGION', 'S3_PREFIX'] as const).find((k) => (e[k] ?? '').trim() !== '');
    if (stray)
      throw new ConfigError(
        `${stray} is set but S3_BUCKET is not: set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or unset every S3_* variable to keep pictures in DATA_DIR.`,
      );
    return null;
  }
  const missing = S3_REQUIRED.filter((k) => !set.includes(k));
  if (missing.length > 0) {
    throw new ConfigError(
      `The picture bucket is half configured: set ${missing.join(', ')} too, or unset every S3_* variable to keep pictures in DATA_DIR.`,
    );
  }
  const bucket = e.S3_BUCKET!.trim();
  // S3's bucket naming rules (what every S3-compatible store accepts).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(`S3_BUCKET "${bucket}" is not a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens.`);
  }
  const region = (e.S3_REGION ?? '').trim() || 'us-east-1';
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new ConfigError(`S3_REGION "${region}" is not a region name such as us-east-1 or auto.`);
  const prefix = e.S3_PREFIX === undefined ? 'avatars/' : e.S3_PREFIX.trim();
  if (!/^([A-Za-z0-9_.-]+\/)*$/.test(prefix) || prefix.split('/').some((part) => part === '.' || part === '..')) {
    throw new ConfigError(`S3_PREFIX "${prefix}" must be empty or folder names ending in "/", such as avatars/.`);
  }
  return {
    endpoint: httpUrl('S3_ENDPOINT', (e.S3_ENDPOINT ?? '').trim() || `https://s3.${region}.amazonaws.com`),
    bucket,
    region,
    accessKeyId: e.S3_ACCESS_KEY_ID!.trim(),
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!.trim(),
    prefix,
  };
}

/** A CSP host source: scheme, host (a leading "*." allowed) and optional port, nothing else. */
function checkoutOrigin(value: string): string {
  if (!/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(value.trim())) {
    throw new ConfigError(`BILLING_CHECKOUT_ORIGIN "${value}" must be an origin such as https://*.lemonsqueezy.com.`);
  }
  return value.trim();
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function generatedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'secrets.json');
  let secrets: Record<string, string> = {};
  if (existsSync(file)) secrets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  if (!secrets[name]) {
    secrets[name] = randomBytes(32).toString('base64url');
    writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  }
  return secrets[name];
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid environment: ${issues}`);
  }
  const e = parsed.data;
  if (e.GTM_ID && !GTM_ID_PATTERN.test(e.GTM_ID)) {
    throw new ConfigError(`GTM_ID "${e.GTM_ID}" does not match ${GTM_ID_PATTERN.source}`);
  }
  const billing = billingConfig(e);
  const pictureBucket = pictureBucketConfig(e);
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const sessionSecrets = e.SESSION_SECRET
    ? e.SESSION_SECRET.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [generatedSecret(dataDir, 'session')];
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    marketDb: path.resolve(e.MARKET_DB ?? path.join(dataDir, 'market.duckdb')),
    marketReader: { memoryLimit: e.MARKET_DB_MEMORY_LIMIT?.replace(/\s+/g, ''), threads: e.MARKET_DB_THREADS },
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    sessionSecrets,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    gtmId: e.GTM_ID || undefined,
    trustProxy: e.TRUST_PROXY,
    secUserAgent: e.SEC_USER_AGENT || undefined,
    secEdgarUrl: (e.SEC_EDGAR_URL ?? 'https://data.sec.gov').replace(/\/+$/, ''),
    secArchivesUrl: (e.SEC_EDGAR_URL ?? 'https://www.sec.gov').replace(/\/+$/, ''),
    providers: providersConfig(e),
    jobs: { leaseMs: e.JOB_LEASE_MS, inApp: e.JOBS_IN_APP, queuePrefix: e.JOBS_QUEUE_PREFIX ?? e.REDIS_PREFIX },
    guestMode: e.GUEST_MODE,
    firstUserIsAdmin: e.FIRST_USER_IS_ADMIN,
    billingEnabled: billing !== null,
    billing,
    pictureBucket,
  };
}

/** Settings a production operator should set; each one left at its default is logged once. */
export function productionWarnings(config: AppConfig, source: NodeJS.ProcessEnv = process.env): string[] {
  if (!config.isProduction) return [];
  const warnings: string[] = [];
  if (!source.SESSION_SECRET) warnings.push('SESSION_SECRET is not set: using a secret generated into DATA_DIR.');
  if (!source.APP_URL) warnings.push(`APP_URL is not set: links in mails use ${config.appUrl}.`);
  if (!source.SMTP_URL) warnings.push('SMTP_URL is not set: mails go to the log and DATA_DIR/outbox only.');
  if (!source.DATABASE_URL) warnings.push('DATABASE_URL is not set: using the SQLite file in DATA_DIR.');
  return warnings;
}

let cached: AppConfig | undefined;

export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}

/** Tests change the environment between suites; they call this to re-read it. */
export function resetConfigForTests(): void {
  cached = undefined;
}
