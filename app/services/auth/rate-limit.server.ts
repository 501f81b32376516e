import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { config } from '../config.server';
import { tooManyRequests } from '../http/errors';

// Rate limits on requests of the account flows that send mail or check an e-mail-change code
// (sign-up, password reset, e-mail change): per e-mail (each address the request names), per
// client address when we know it (TRUST_PROXY=1), and a global ceiling per action that only slows:
// past it the service is being flooded, and each e-mail gets one try per window instead of its
// usual allowance. The ceiling never refuses the first try for an e-mail, so a client flooding
// random addresses cannot keep anyone else from signing up or resetting a password (the same
// approach as guessing-limits.server.ts). Password and sign-in/reset code guesses have their own
// limits, on failures only (guessing-limits.server.ts). In memory by default; in Redis when
// REDIS_URL is set, so every app process shares the same counts.

export type LimitedAction = 'otp' | 'signup' | 'reset' | 'email_change';
export type LimitScope = 'email' | 'address' | 'global';
export type LimitRule = { points: number; durationSeconds: number };

const MINUTE = 60;

export const RATE_LIMITS: Record<LimitedAction, Record<LimitScope, LimitRule>> = {
  // E-mail change codes: each code also dies after 5 wrong tries; this bounds guesses across new codes.
  otp: {
    email: { points: 30, durationSeconds: 15 * MINUTE },
    address: { points: 100, durationSeconds: 15 * MINUTE },
    global: { points: 600, durationSeconds: MINUTE },
  },
  signup: {
    email: { points: 5, durationSeconds: 60 * MINUTE },
    address: { points: 20, durationSeconds: 60 * MINUTE },
    global: { points: 300, durationSeconds: MINUTE },
  },
  // Each reset request sends a mail: keep it low per address to avoid mail-bombing someone.
  reset: {
    email: { points: 5, durationSeconds: 60 * MINUTE },
    address: { points: 20, durationSeconds: 60 * MINUTE },
    global: { points: 100, durationSeconds: MINUTE },
  },
  // Each request mails a code to an address the account holder typed: low, like reset.
  email_change: {
    email: { points: 5, durationSeconds: 60 * MINUTE },
    address: { points: 20, durationSeconds: 60 * MINUTE },
    global: { points: 100, durationSeconds: MINUTE },
  },
};

let namespace = 'v1';
let redis: Redis | undefined;
const limiters = new Map<string, RateLimiterAbstract>();

function redisClient(url: string): Redis {
  if (!redis) {
    // Commands wait for the first connection (so counts are shared from the start), but during an
    // outage they fail after one quick reconnect attempt and the insurance limiter counts instead.
    redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: (times) => Math.min(times * 100, 500) });
    // A Redis outage must not take sign-in down: the in-memory insurance limiter takes over.
    redis.on('error', () => undefined);
  }
  return redis;
}

/**
 * A limiter named `name` (one instance per process, created on first use): in Redis when
 * REDIS_URL is set, with an in-memory insurance limiter for outages; in memory otherwise.
 */
export function storedLimiter(name: string, rule: LimitRule): RateLimiterAbstract {
  let limiter = limiters.get(name);
  if (!limiter) {
    const base = { points: rule.points, duration: rule.durationSeconds, keyPrefix: `${config().redisPrefix}:rl:${namespace}:${name}` };
    const url = config().redisUrl;
    limiter = url
      ? new RateLimiterRedis({ ...base, storeClient: redisClient(url), insuranceLimiter: new RateLimiterMemory(base) })
      : new RateLimiterMemory(base);
    limiters.set(name, limiter);
  }
  return limiter;
}

/** The limiter of one action and scope. */
export function limiterFor(action: LimitedAction, scope: LimitScope): RateLimiterAbstract {
  return storedLimiter(`${action}:${scope}`, RATE_LIMITS[action][scope]);
}

/**
 * Counts one attempt of `action` in every bucket that applies; throws a 429 DomainError with
 * Retry-After when an e-mail's or the client address's bucket is exhausted. The global bucket
 * never refuses by itself: past its ceiling, an e-mail's try costs its whole allowance (the first
 * try for an e-mail in the window still passes, the next one waits for the window).
 */
export async function limit(action: LimitedAction, keys: { email?: string | string[]; clientAddress?: string }): Promise<void> {
  const rules = RATE_LIMITS[action];
  const emails = new Set(
    (typeof keys.email === 'string' ? [keys.email] : (keys.email ?? [])).map((e) => e.trim().toLowerCase()).filter(Boolean),
  );
  // penalty() counts without ever refusing.
  const all = await limiterFor(action, 'global').penalty('all', 1);
  const flooded = all.consumedPoints > rules.global.points;
  const buckets: Array<[LimitScope, string, number]> = [];
  for (const email of emails) buckets.push(['email', email, flooded ? rules.email.points : 1]);
  if (keys.clientAddress) buckets.push(['address', keys.clientAddress, 1]);
  const results = await Promise.allSettled(buckets.map(([scope, key, cost]) => limiterFor(action, scope).consume(key, cost)));
  let retryAfterMs = 0;
  for (const r of results) {
    if (r.status === 'fulfilled') continue;
    if (r.reason instanceof RateLimiterRes) retryAfterMs = Math.max(retryAfterMs, r.reason.msBeforeNext);
    else throw r.reason;
  }
  if (retryAfterMs > 0) throw tooManyRequests(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/** The first X-Forwarded-For hop when TRUST_PROXY is on; remix-serve gives no address otherwise. */
export function clientAddress(request: Request): string | undefined {
  if (!config().trustProxy) return undefined;
  const first = request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim();
  return first && first.length <= 64 ? first : undefined;
}

/** Tests: forget all counts (a fresh key namespace, so Redis counts from other runs do not leak in). */
export function resetRateLimitsForTests(ns = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`): void {
  namespace = ns;
  limiters.clear();
}

/** Closes the shared Redis connection (tests, graceful shutdown). */
export async function closeRateLimits(): Promise<void> {
  limiters.clear();
  const r = redis;
  redis = undefined;
  if (r) await r.quit().catch(() => r.disconnect());
}
