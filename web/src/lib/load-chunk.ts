const CHUNK_RELOAD_KEY = 'chunkReloadAt';

/**
 * Loads a chunk of the app; if it is gone (a new build replaced it while the tab was open), loads
 * the page again once, at most every 10 s, instead of leaving the member on a spinner or a page
 * whose controls never come alive. The boot (web/src/main.tsx) and the lazy pages use it.
 */
export async function loadChunk<M>(load: () => Promise<M>, reload = () => window.location.reload()): Promise<M> {
  try {
    return await load();
  } catch (error) {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last > 10_000) {
      sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
      reload();
      return new Promise<M>(() => undefined);
    }
    throw error;
  }
}
