/**
 * Polls `read` every 50 ms until `done` holds for its value, and returns that value; fails after
 * `timeoutMs` with `describe(lastValue)`. For outcomes the service reaches on its own (jobs,
 * deliveries, delayed network events).
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
  describe: (last: T) => string = (last) =>
    `condition not reached within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(describe(value));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
