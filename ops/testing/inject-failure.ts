/** The error an injected failure throws, so a test can tell it from a real one. */
export class InjectedFailure extends Error {}

/**
 * `target` whose `nth` call of `method` fails: 'before' it happens (it never does), or 'after'
 * it happened (the caller loses the answer, as when a connection drops). Other methods and
 * calls pass through. For failure-injection tests at a port (event store, gateway).
 */
export function failing<T extends object>(target: T, method: keyof T, nth: number, when: 'before' | 'after'): T {
  let calls = 0;
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== method) return value.bind(object);
      return async (...args: unknown[]) => {
        const nthCall = ++calls === nth;
        if (nthCall && when === 'before') throw new InjectedFailure(`${String(method)} #${nth} failed before it ran`);
        const result = await value.apply(object, args);
        if (nthCall) throw new InjectedFailure(`${String(method)} #${nth} failed after it ran`);
        return result;
      };
    },
  });
}
