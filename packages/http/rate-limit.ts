import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import type * as RateLimiterFlexible from 'rate-limiter-flexible';
import { HttpError } from './errors.ts';
import { requestState } from './request-state.ts';

/**
 * The limiter classes used, each loaded from its own file (the Redis one only with Redis): the
 * package's entry point loads the limiters of every store it supports, 36 modules; measured alone,
 * 1.0 MB of V8 heap and 9–10 MB resident against 0.1 and 0.6 for these (`docs/benchmarks.md`, "Memory").
 */
const require = createRequire(import.meta.url);
const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory') as typeof RateLimiterFlexible.RateLimiterMemory;
const BurstyRateLimiter =
  require('rate-limiter-flexible/lib/BurstyRateLimiter') as typeof RateLimiterFlexible.BurstyRateLimiter;
const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes') as typeof RateLimiterFlexible.RateLimiterRes;

export interface RateLimitDecision {
  allowed: boolean;
  /** When refused: how long to wait before the next attempt can succeed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for the key. */
  consume(key: string): Promise<RateLimitDecision>;
}

export interface RateLimiterOptions {
  /** Sustained requests per second allowed per key. */
  pointsPerSecond: number;
  /** The most requests allowed within one second, when the burst allowance has not been used up. */
  burst: number;
  /** Shared counters across API processes; without it each process counts on its own. */
  redis?: Redis;
}

/**
 * The burst allowance (burst − pointsPerSecond requests above the sustained rate) refills over
 * this window, so spikes are absorbed while the average stays close to the sustained rate.
 */
const BURST_WINDOW_SECONDS = 10;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const sustained = counter(options, 'rate', options.pointsPerSecond, 1);
  const extra = options.burst - options.pointsPerSecond;
  const limiter =
    extra > 0 ? new BurstyRateLimiter(sustained, counter(options, 'burst', extra, BURST_WINDOW_SECONDS)) : sustained;
  return {
    // One promise a request besides the limiter's own: every request is counted.
    consume: (key) => limiter.consume(key).then(allowed, refused),
  };
}

const ALLOWED: RateLimitDecision = { allowed: true, retryAfterSeconds: 0 };
const allowed = (): RateLimitDecision => ALLOWED;

function refused(refusal: unknown): RateLimitDecision {
  if (!(refusal instanceof RateLimiterRes)) throw refusal;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
}

function counter(
  options: RateLimiterOptions,
  name: string,
  points: number,
  duration: number,
): RateLimiterFlexible.RateLimiterAbstract {
  const keyPrefix = `ratelimit:${name}`;
  const inMemory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (!options.redis) return inMemory;
  const RateLimiterRedis =
    require('rate-limiter-flexible/lib/RateLimiterRedis') as typeof RateLimiterFlexible.RateLimiterRedis;
  // While Redis is unreachable each process falls back to counting on its own rather than failing requests.
  return new RateLimiterRedis({ storeClient: options.redis, keyPrefix, points, duration, insuranceLimiter: inMemory });
}

/**
 * Counts each request against the caller's key, or the client IP when no key was recognised
 * (which also slows down key guessing); refuses with 429 and `Retry-After`. The routes that need
 * no key (health, OpenAPI document, images) count per client IP in a budget of their own, so that
 * a load balancer's health checks and failed key guesses from one address do not starve each other.
 */
export function rateLimit(limiter: RateLimiter, budget: 'api' | 'unauthenticated' = 'api'): RequestHandler {
  const decided = (decision: RateLimitDecision, next: (error?: unknown) => void): void => {
    if (decision.allowed) {
      next();
      return;
    }
    const seconds = decision.retryAfterSeconds;
    next(
      new HttpError(
        429,
        'rate_limit_error',
        `Too many requests: retry after ${seconds} second${seconds === 1 ? '' : 's'}`,
        {
          'Retry-After': String(seconds),
        },
      ),
    );
  };
  return (req, res, next) => {
    const auth = requestState(res).auth;
    const ip = req.ip ?? 'unknown';
    const key = budget === 'unauthenticated' ? `open-ip:${ip}` : auth ? `key:${auth.keyId}` : `ip:${ip}`;
    return limiter.consume(key).then((decision) => decided(decision, next));
  };
}
