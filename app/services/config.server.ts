import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// Environment is read and validated once; everything else asks this module.
// Secrets that an operator did not set are generated once into DATA_DIR so a
// first-time user is never blocked (DESIGN §11).

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
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Quarry <no-reply@quarry.localhost>'),
  SESSION_SECRET: z.string().optional(),
  APP_URL: z.string().url().optional(),
  GTM_ID: z.string().optional(),
  TRUST_PROXY: flag,
  SEC_USER_AGENT: z.string().optional(),
  // Jobs (backtests): a worker owns a running job for JOB_LEASE_MS unless it renews the lease, so
  // a dead worker's job is taken over that long after it died. JOBS_IN_APP=0 leaves all jobs to
  // `npm run worker` processes.
  JOB_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  JOBS_IN_APP: z
    .string()
    .optional()
    .transform((v) => v !== '0' && v !== 'false'),
  JOBS_QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]{1,60}$/, 'letters, digits, _ : - (at most 60)').default('quarry'),
  // Guest mode: visitors without an account browse the data browser (spec §6).
  GUEST_MODE: z
    .string()
    .optional()
    .transform((v) => v !== '0' && v !== 'false'),
  FIRST_USER_IS_ADMIN: flag,
  BILLING_PROVIDER: z.string().optional(),
});

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  marketDb: string;
  smtpUrl?: string;
  mailFrom: string;
  sessionSecrets: string[];
  appUrl: string;
  gtmId?: string;
  trustProxy: boolean;
  secUserAgent?: string;
  jobs: { leaseMs: number; inApp: boolean; queuePrefix: string };
  guestMode: boolean;
  firstUserIsAdmin: boolean;
  billingEnabled: boolean;
};

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
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const sessionSecrets = e.SESSION_SECRET
    ? e.SESSION_SECRET.split(',').map((s) => s.trim()).filter(Boolean)
    : [generatedSecret(dataDir, 'session')];
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    marketDb: path.resolve(e.MARKET_DB ?? path.join(dataDir, 'market.duckdb')),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    sessionSecrets,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    gtmId: e.GTM_ID || undefined,
    trustProxy: e.TRUST_PROXY,
    secUserAgent: e.SEC_USER_AGENT || undefined,
    jobs: { leaseMs: e.JOB_LEASE_MS, inApp: e.JOBS_IN_APP, queuePrefix: e.JOBS_QUEUE_PREFIX },
    guestMode: e.GUEST_MODE,
    firstUserIsAdmin: e.FIRST_USER_IS_ADMIN,
    billingEnabled: Boolean(e.BILLING_PROVIDER),
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
