import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../../tests/support/temp-dir';
import { ConfigError, loadConfig as load, productionWarnings as warnings } from './config.server';

// The functions take a ProcessEnv; tests hand them small literal environments.
const loadConfig = (env: Record<string, string>) => load(env as NodeJS.ProcessEnv);
const productionWarnings = (c: ReturnType<typeof load>, env: Record<string, string>) => warnings(c, env as NodeJS.ProcessEnv);

const dataDir = () => tempDirForTest('quarry-config-');

describe('configuration', () => {
  it('starts with nothing set: secrets are generated once into DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.sessionSecrets).toHaveLength(1);
    expect(first.sessionSecrets[0].length).toBeGreaterThanOrEqual(40);
    expect(second.sessionSecrets).toEqual(first.sessionSecrets);
    expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')).session).toBe(first.sessionSecrets[0]);
    expect(first.port).toBe(3000);
    expect(first.appUrl).toBe('http://localhost:3000');
    expect(first.marketDb).toBe(path.join(dir, 'market.duckdb'));
    expect(first.guestMode).toBe(true);
  });

  it("bounds the app's market connection only when told: MARKET_DB_MEMORY_LIMIT, MARKET_DB_THREADS", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).marketReader).toEqual({ memoryLimit: undefined, threads: undefined });
    expect(loadConfig({ DATA_DIR: dataDir(), MARKET_DB_MEMORY_LIMIT: '512 MB', MARKET_DB_THREADS: '1' }).marketReader).toEqual({
      memoryLimit: '512MB',
      threads: 1,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), MARKET_DB_MEMORY_LIMIT: 'lots' })).toThrow(/MARKET_DB_MEMORY_LIMIT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), MARKET_DB_THREADS: '0' })).toThrow(/MARKET_DB_THREADS/);
  });

  it('rotates session secrets given comma-separated', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), SESSION_SECRET: 'new-one, old-one' }).sessionSecrets).toEqual(['new-one', 'old-one']);
  });

  it('refuses a tag-manager id that does not match GTM-[A-Z0-9]+', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), GTM_ID: 'GTM-abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), GTM_ID: 'UA-12345' })).toThrow(/GTM_ID/);
    expect(loadConfig({ DATA_DIR: dataDir(), GTM_ID: 'GTM-K9X2ABC' }).gtmId).toBe('GTM-K9X2ABC');
  });

  it('prefixes every Redis key with REDIS_PREFIX; the job queue may have its own', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ redisPrefix: 'quarry', jobs: { queuePrefix: 'quarry' } });
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'acme' })).toMatchObject({ redisPrefix: 'acme', jobs: { queuePrefix: 'acme' } });
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'acme', JOBS_QUEUE_PREFIX: 'acme-jobs' }).jobs.queuePrefix).toBe('acme-jobs');
    expect(() => loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'a b{c}' })).toThrow(/REDIS_PREFIX: letters, digits/);
  });

  it('rejects a bad port with a clear message', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('warns about each production setting left at its default', () => {
    const env = { DATA_DIR: dataDir(), NODE_ENV: 'production' } as const;
    const warnings = productionWarnings(loadConfig(env), env);
    expect(warnings.join('\n')).toMatch(/SESSION_SECRET/);
    expect(warnings.join('\n')).toMatch(/SMTP_URL/);
    expect(productionWarnings(loadConfig({ DATA_DIR: dataDir() }), {})).toEqual([]);
  });
});
