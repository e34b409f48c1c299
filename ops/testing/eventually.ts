/**
 * Reads until `done` (or the time is up: then the last value, for the caller's assertion).
 * Read models and process managers trail the commands that feed them, by seconds on a loaded
 * shared database server, so tests wait on the exact condition they then assert.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
