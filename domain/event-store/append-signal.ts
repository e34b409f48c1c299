/** While appends are not heard (no live notification channel), waiters wake at least this often. */
const UNHEARD_POLL_MS = 250;

/**
 * Wakes waiting followers when events may have been appended: by this process, or by others
 * as the adapter hears of them. While the adapter hears nothing (its channel is down), a wait
 * lasts at most UNHEARD_POLL_MS, so followers fall back to polling.
 */
export class AppendSignal {
  private readonly waiters = new Set<() => void>();

  constructor(private readonly hearing: () => boolean) {}

  wake(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** True as soon as an append is signalled, false after timeoutMs or on abort. */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    const timeout = this.hearing() ? timeoutMs : Math.min(timeoutMs, UNHEARD_POLL_MS);
    return new Promise((resolve) => {
      const finish = (woken: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', abort);
        resolve(woken);
      };
      const wake = () => finish(true);
      const abort = () => finish(false);
      const timer = setTimeout(() => finish(false), timeout);
      this.waiters.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
