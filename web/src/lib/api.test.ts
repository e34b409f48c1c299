import '@/test-support/jsdom-setup';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { baseQuery, browser, UNAUTHORIZED_REDIRECT_MS, type ApiError } from './api';
import { getToasts } from '@/components/toast';

const context = { signal: new AbortController().signal } as Parameters<typeof baseQuery>[1];

describe('base query', () => {
  it('sends credentials, the client id and JSON', async () => {
    let init: RequestInit | undefined;
    globalThis.fetch = (async (_url: string, given: RequestInit) => {
      init = given;
      return {
        ok: true,
        status: 200,
        statusText: 'OK',
        headers: { get: () => null },
        text: async () => '{"a":1}',
      } as unknown as Response;
    }) as typeof fetch;
    const result = await baseQuery({ url: '/api/x', method: 'POST', body: { b: 2 } }, context, {});
    expect(result).toEqual({ data: { a: 1 } });
    expect(init?.credentials).toBe('include');
    const headers = init?.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-Client-Id']).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(headers['X-Client-Id']).toBe(window.localStorage.getItem('clientId'));
    expect(init?.body).toBe('{"b":2}');
  });

  it("turns a failure into {status, statusText, bodyText, bodyJson, reqId} with '{status}: {body}'", async () => {
    installFakeFetch(() => ({ status: 409, statusText: 'Conflict', body: { error: 'already exists' } }));
    const { error } = (await baseQuery('/api/y', context, {})) as { error: ApiError };
    expect(error).toEqual({
      status: 409,
      statusText: 'Conflict',
      bodyText: '{"error":"already exists"}',
      bodyJson: { error: 'already exists' },
      reqId: 'req-1',
      message: '409: {"error":"already exists"}',
    });
  });

  it('uses the status text when the body is empty', async () => {
    installFakeFetch(() => ({ status: 503, statusText: 'Service Unavailable' }));
    const { error } = (await baseQuery('/api/y', context, {})) as { error: ApiError };
    expect(error.message).toBe('503: Service Unavailable');
    expect(error).not.toHaveProperty('bodyJson');
  });

  it('handles a 401 centrally: toast, then /api/login after 500 ms', async () => {
    jest.useFakeTimers();
    const assigned: string[] = [];
    const original = browser.assign;
    browser.assign = (url) => assigned.push(url);
    try {
      installFakeFetch(() => ({ status: 401, body: { error: 'Unauthorized' } }));
      await baseQuery('/api/posts', context, {});
      expect(getToasts()[0]).toMatchObject({
        title: 'Unauthorized',
        description: 'You are logged out. Logging in again...',
        variant: 'destructive',
        open: true,
      });
      expect(assigned).toEqual([]);
      jest.advanceTimersByTime(UNAUTHORIZED_REDIRECT_MS);
      expect(assigned).toEqual(['/api/login']);
    } finally {
      browser.assign = original;
      jest.useRealTimers();
    }
  });

  it("leaves a 401 to the caller with on401: 'error'", async () => {
    jest.useFakeTimers();
    const assigned: string[] = [];
    const original = browser.assign;
    browser.assign = (url) => assigned.push(url);
    try {
      installFakeFetch(() => ({ status: 401, body: { error: 'Invalid email or password' } }));
      const result = await baseQuery('/api/auth/login', context, { on401: 'error' });
      expect(result.error?.status).toBe(401);
      jest.advanceTimersByTime(2 * UNAUTHORIZED_REDIRECT_MS);
      expect(assigned).toEqual([]);
    } finally {
      browser.assign = original;
      jest.useRealTimers();
    }
  });
});
