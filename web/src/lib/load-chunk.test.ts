import '@/test-support/jsdom-setup';
import { loadChunk } from './load-chunk';

const gone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

afterEach(() => {
  sessionStorage.clear();
  jest.useRealTimers();
});

describe('loadChunk', () => {
  it('gives the module when it loads', async () => {
    const reload = jest.fn();
    await expect(loadChunk(async () => ({ page: 'home' }), reload)).resolves.toEqual({ page: 'home' });
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page once when a chunk is gone, and lets a second failure within 10 s through', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-29T12:00:00Z') });
    const reload = jest.fn();
    const first = loadChunk(gone, reload);
    await Promise.resolve();
    await Promise.resolve();
    expect(reload).toHaveBeenCalledTimes(1);
    let settled = false;
    void first.finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // nothing more happens on the page that is going away

    // The reloaded page fails again at once: the error goes on (no reload loop).
    jest.setSystemTime(new Date('2026-11-29T12:00:05Z'));
    await expect(loadChunk(gone, reload)).rejects.toThrow('Failed to fetch');
    expect(reload).toHaveBeenCalledTimes(1);

    // Later, another new build: one reload again.
    jest.setSystemTime(new Date('2026-11-29T12:00:20Z'));
    void loadChunk(gone, reload);
    await Promise.resolve();
    await Promise.resolve();
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
