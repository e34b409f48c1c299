/** A stand-in for window.fetch in jsdom: answers from a list of routes, records every call. */
export interface FakeCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeAnswer = { status: number; body?: unknown; statusText?: string };

export function installFakeFetch(answer: (call: FakeCall) => FakeAnswer | Promise<FakeAnswer>): FakeCall[] {
  const calls: FakeCall[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    const call: FakeCall = {
      url: String(url),
      method: init.method ?? 'GET',
      headers: (init.headers ?? {}) as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const { status, body, statusText } = await answer(call);
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: statusText ?? '',
      headers: { get: (name: string) => (name.toLowerCase() === 'x-request-id' ? 'req-1' : null) },
      text: async () => text,
    } as unknown as Response;
  }) as typeof fetch;
  return calls;
}
