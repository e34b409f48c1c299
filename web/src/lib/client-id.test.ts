import '@/test-support/jsdom-setup';

/** A fresh copy of the module (its id is kept per page). */
const load = () => {
  let module!: typeof import('./client-id');
  jest.isolateModules(() => {
    module = jest.requireActual('./client-id');
  });
  return module;
};

afterEach(() => {
  window.localStorage.clear();
  jest.restoreAllMocks();
});

describe('clientId', () => {
  it('is 21 URL-safe characters, kept in localStorage and reused by the next visit', () => {
    const id = load().clientId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(window.localStorage.getItem('clientId')).toBe(id);
    expect(load().clientId()).toBe(id);
  });

  it('differs between browsers, and replaces a stored value that is no id', () => {
    const first = load().clientId();
    window.localStorage.clear();
    expect(load().clientId()).not.toBe(first);
    window.localStorage.setItem('clientId', 'not an id');
    expect(load().clientId()).toMatch(/^[A-Za-z0-9_-]{21}$/);
  });

  it('keeps one id for the page when storage is blocked', () => {
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('blocked');
    });
    const module = load();
    const id = module.clientId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(module.clientId()).toBe(id);
  });
});
