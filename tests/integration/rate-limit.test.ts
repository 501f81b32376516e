import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { config, resetConfigForTests } from '~/services/config.server';
import { DomainError } from '~/services/http/errors';
import { clientAddress, closeRateLimits, limit, limiterFor, RATE_LIMITS, resetRateLimitsForTests } from '~/services/auth/rate-limit.server';

// Rate limits: buckets per e-mail, per client address and global; 429 with Retry-After; shared
// through Redis across processes when REDIS_URL is set.

const REDIS_URL = process.env.REDIS_URL;

async function hits(action: Parameters<typeof limit>[0], keys: Parameters<typeof limit>[1], times: number): Promise<DomainError[]> {
  const errors: DomainError[] = [];
  for (let i = 0; i < times; i++) {
    try {
      await limit(action, keys);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors.push(e);
    }
  }
  return errors;
}

function withEnv(patch: Record<string, string | undefined>): () => void {
  const before: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(patch)) {
    before[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
  };
}

describe('rate limits in memory', () => {
  let restore: () => void = () => undefined;
  afterEach(async () => {
    restore();
    await closeRateLimits();
  });

  it('limits per e-mail and answers 429 with Retry-After', async () => {
    restore = withEnv({ REDIS_URL: undefined });
    resetRateLimitsForTests();
    const { points, durationSeconds } = RATE_LIMITS.signup.email;
    expect(await hits('signup', { email: 'a@example.com' }, points)).toEqual([]);
    const [err] = await hits('signup', { email: 'A@Example.com' }, 1);
    expect(err.status).toBe(429);
    expect(err.detail).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    const retryAfter = Number(err.headers?.['Retry-After']);
    expect(retryAfter).toBeGreaterThan(durationSeconds - 5);
    expect(retryAfter).toBeLessThanOrEqual(durationSeconds);
    expect(await hits('signup', { email: 'b@example.com' }, 1)).toEqual([]);
    // Actions count separately.
    expect(await hits('otp', { email: 'a@example.com' }, 1)).toEqual([]);
  });

  it('limits per client address across e-mails', async () => {
    restore = withEnv({ REDIS_URL: undefined });
    resetRateLimitsForTests();
    const { points } = RATE_LIMITS.signup.address;
    for (let i = 0; i < points; i++) await limit('signup', { email: `u${i}@example.com`, clientAddress: '203.0.113.9' });
    const errors = await hits('signup', { email: 'new@example.com', clientAddress: '203.0.113.9' }, 1);
    expect(errors.map((e) => e.status)).toEqual([429]);
    expect(await hits('signup', { email: 'new@example.com', clientAddress: '203.0.113.10' }, 1)).toEqual([]);
  });

  it('past the global ceiling an e-mail gets one try per window, and a first try is never refused', async () => {
    restore = withEnv({ REDIS_URL: undefined });
    resetRateLimitsForTests();
    const { points } = RATE_LIMITS.reset.global;
    // One client floods new e-mails well past the ceiling: every first try passes.
    for (let i = 0; i < points + 20; i++) expect(await hits('reset', { email: `flood-${i}@example.com` }, 1)).toEqual([]);
    // A new e-mail: its first try passes, the second waits for the e-mail's window.
    expect(await hits('reset', { email: 'new@example.com' }, 1)).toEqual([]);
    const [err] = await hits('reset', { email: 'new@example.com' }, 1);
    expect(err.status).toBe(429);
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(RATE_LIMITS.reset.email.durationSeconds - 5);
    // The same holds for sign-up and e-mail change (both addresses of a change are counted).
    for (let i = 0; i < RATE_LIMITS.signup.global.points + 5; i++) await limit('signup', { email: `s${i}@example.com` });
    expect(await hits('signup', { email: 'first@example.com' }, 1)).toEqual([]);
    for (let i = 0; i < RATE_LIMITS.email_change.global.points + 5; i++)
      await limit('email_change', { email: [`old${i}@example.com`, `new${i}@example.com`] });
    expect(await hits('email_change', { email: ['me@example.com', 'me-new@example.com'] }, 1)).toEqual([]);
    expect((await hits('email_change', { email: ['me@example.com', 'me-2@example.com'] }, 1)).map((e) => e.status)).toEqual([429]);
  });

  it('falls back to in-memory counting when Redis is unreachable (no 500 on an outage)', async () => {
    restore = withEnv({ REDIS_URL: 'redis://127.0.0.1:1' });
    resetRateLimitsForTests();
    const { points } = RATE_LIMITS.reset.email;
    const errors = await hits('reset', { email: 'outage@example.com' }, points + 1);
    expect(errors.map((e) => e.status)).toEqual([429]);
  });

  it('reads the first X-Forwarded-For hop only when TRUST_PROXY is on', () => {
    const request = new Request('http://localhost/', { headers: { 'X-Forwarded-For': '198.51.100.7, 10.0.0.1' } });
    restore = withEnv({ TRUST_PROXY: undefined });
    expect(clientAddress(request)).toBeUndefined();
    restore();
    restore = withEnv({ TRUST_PROXY: '1' });
    expect(clientAddress(request)).toBe('198.51.100.7');
    expect(clientAddress(new Request('http://localhost/'))).toBeUndefined();
  });
});

describe.skipIf(!REDIS_URL)(`rate limits in Redis${REDIS_URL ? '' : ' (skipped: set REDIS_URL=redis://... to run)'}`, () => {
  let restore: () => void = () => undefined;
  const clients: Redis[] = [];
  afterAll(async () => {
    restore();
    await closeRateLimits();
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('uses Redis when REDIS_URL is set', async () => {
    restore = withEnv({ REDIS_URL });
    resetRateLimitsForTests();
    expect(limiterFor('signup', 'email')).toBeInstanceOf(RateLimiterRedis);
  });

  it('two limiter instances (two processes) share one count', async () => {
    const ns = `shared${Date.now().toString(36)}`;
    const { points } = RATE_LIMITS.signup.email;
    // "Process" one: the app's own limiter.
    resetRateLimitsForTests(ns);
    expect(await hits('signup', { email: 'shared@example.com' }, points - 1)).toEqual([]);
    // "Process" two: a separate Redis connection and limiter with the same configuration.
    const other = new Redis(REDIS_URL!);
    clients.push(other);
    const twin = new RateLimiterRedis({
      storeClient: other,
      points,
      duration: RATE_LIMITS.signup.email.durationSeconds,
      keyPrefix: `${config().redisPrefix}:rl:${ns}:signup:email`,
    });
    const consumed = await twin.consume('shared@example.com');
    expect(consumed.consumedPoints).toBe(points);
    // Back in process one: the bucket is full because of the other process.
    const errors = await hits('signup', { email: 'shared@example.com' }, 1);
    expect(errors.map((e) => e.status)).toEqual([429]);
    expect(Number(errors[0].headers?.['Retry-After'])).toBeGreaterThan(0);
  });
  it('deployments with different REDIS_PREFIX on one Redis count apart; the keys carry the prefix', async () => {
    const ns = `prefixed${Date.now().toString(36)}`;
    const { points } = RATE_LIMITS.signup.email;
    const address = 'tenant@example.com';
    restore();
    restore = withEnv({ REDIS_URL, REDIS_PREFIX: 'tenant-a' });
    resetRateLimitsForTests(ns);
    expect(await hits('signup', { email: address }, points)).toEqual([]);
    expect((await hits('signup', { email: address }, 1)).map((e) => e.status)).toEqual([429]);

    // Deployment B: same Redis, same address, its own prefix: a fresh count.
    restore();
    restore = withEnv({ REDIS_URL, REDIS_PREFIX: 'tenant-b' });
    resetRateLimitsForTests(ns);
    expect(await hits('signup', { email: address }, points)).toEqual([]);

    const inspector = new Redis(REDIS_URL!);
    clients.push(inspector);
    const keys = await inspector.keys(`*:rl:${ns}:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith('tenant-a:rl:') || k.startsWith('tenant-b:rl:'))).toBe(true);
    expect(keys.some((k) => k.startsWith('tenant-a:rl:'))).toBe(true);
    expect(keys.some((k) => k.startsWith('tenant-b:rl:'))).toBe(true);
    await inspector.del(...keys);
  });
});
