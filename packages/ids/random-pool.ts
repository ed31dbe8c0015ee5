import { randomFillSync } from 'node:crypto';

/**
 * Random bytes are drawn from the system generator a few kilobytes at a time (as Node does for
 * `randomUUID`): one system call per id or per IV would cost more than what they are for.
 */
const POOL_SIZE = 8192;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/**
 * `count` random bytes never handed out before. They are a view of the pool, valid until it is
 * refilled by a later call: use them at once (and `fill(0)` what must not be left behind). More
 * than the pool holds come in a buffer of their own.
 */
export function takeRandomBytes(count: number): Buffer {
  if (count > POOL_SIZE) return randomFillSync(Buffer.alloc(count));
  if (poolOffset + count > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return bytes;
}
