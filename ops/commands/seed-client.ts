/** A tiny HTTP client with a cookie jar: one per seeded person, signed in like a browser. */
export class SeedClient {
  private cookie = '';
  userId: string | null = null;

  constructor(private readonly baseUrl: string) {}

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {
      Origin: this.baseUrl,
      Accept: 'application/json',
      'X-Client-Id': 'ops-seed',
    };
    if (this.cookie) headers.Cookie = this.cookie;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const setCookie = response.headers.getSetCookie?.() ?? [];
    for (const entry of setCookie) {
      const [pair] = entry.split(';');
      if (pair.startsWith('lively.sid=')) this.cookie = pair;
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed as T };
  }

  /** POST /api/media with one file (multipart, as a browser sends it): the new item's id. */
  async upload(bytes: Buffer, filename: string, contentType: string): Promise<{ id: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
    const headers: Record<string, string> = { Origin: this.baseUrl, Accept: 'application/json', Cookie: this.cookie };
    const response = await fetch(`${this.baseUrl}/api/media`, { method: 'POST', headers, body: form });
    const body = (await response.json()) as { id: string; error?: string };
    if (response.status !== 201) throw new Error(`POST /api/media -> ${response.status} ${body.error ?? ''}`);
    return body;
  }

  /** POST a multipart form (the identity verification's photos): status and JSON body. */
  async postForm<T = unknown>(path: string, form: FormData): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { Origin: this.baseUrl, Accept: 'application/json', Cookie: this.cookie };
    const response = await fetch(`${this.baseUrl}${path}`, { method: 'POST', headers, body: form });
    return { status: response.status, body: (await response.json()) as T };
  }

  /** The call, or an Error naming it when it did not succeed. */
  async ok<T = unknown>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const result = await this.call<T>(method, path, body);
    if (result.status >= 300)
      throw new Error(`${method} ${path} -> ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`);
    return result.body;
  }
}
