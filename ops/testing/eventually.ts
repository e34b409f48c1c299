import { inspect } from 'node:util';

/**
 * Reads until `done`, then answers the value read. Read models and process managers trail the
 * commands that feed them, by seconds on a loaded shared database server, so tests wait on the
 * exact condition they then assert. When the time is up it throws with the last value read: a
 * wait that never ends is a failure where it happened, not a minute lost before a test goes on
 * without what it waited for.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `eventually: not done after ${timeoutMs} ms; last value read: ${inspect(value, { depth: 4, breakLength: 120 }).slice(0, 2000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
