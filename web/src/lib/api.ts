import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { toast } from '@/components/toast';
import { clientId } from './client-id';
import { logger } from './logger';

/** A failed call as the client sees it (SPEC §3 "API error object", §8 message format). */
export interface ApiError {
  status: number;
  statusText: string;
  bodyText: string;
  bodyJson?: unknown;
  reqId: string | null;
  /** '{status}: {body text or status text}' — the text features match on (SPEC §8). */
  message: string;
}

export interface RequestArgs {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Per-endpoint options (`extraOptions`). `on401: 'error'` makes a 401 an ordinary error the
 * caller handles (the current-user query, the login form); the default is the central
 * handling: toast, then send the browser to /api/login.
 */
export interface ApiExtraOptions {
  on401?: 'redirect' | 'error';
}

export const UNAUTHORIZED_REDIRECT_MS = 500;
/** Full page loads go through here (so tests can watch them; jsdom cannot navigate). */
export const browser = { assign: (url: string) => window.location.assign(url) };
let redirecting = false;

function handleUnauthorized(): void {
  if (redirecting) return;
  redirecting = true;
  toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
  setTimeout(() => {
    redirecting = false;
    browser.assign('/api/login');
  }, UNAUTHORIZED_REDIRECT_MS);
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'status' in value && 'message' in value && 'bodyText' in value;
}

/** A 401 matching 'Unauthorized' already raised the central toast and redirect (SPEC §8). */
export const isUnauthorized = (error: unknown) => isApiError(error) && error.status === 401;

/** The message of whatever a mutation's `unwrap()` threw. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The server's `error` field, when the body is `{error: '...'}`. */
export function serverErrorText(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const body = error.bodyJson as { error?: unknown; message?: unknown } | undefined;
  if (typeof body?.error === 'string') return body.error;
  if (typeof body?.message === 'string') return body.message;
  return null;
}

/**
 * A store on the server (web/src/app/member-page.tsx) asks the API on the member's behalf: at
 * the server's own address, with the member's cookie. It is the thunks' extra argument.
 */
export interface ServerRequest {
  origin: string;
  cookie: string;
}
const serverRequestOf = (extra: unknown) => (extra as { server?: ServerRequest } | undefined)?.server;

/** The one base query: session cookie, client id, JSON in and out, errors in one shape. */
export const baseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError, ApiExtraOptions> = async (
  args,
  { signal, extra },
  extraOptions,
) => {
  const request: RequestArgs = typeof args === 'string' ? { url: args } : args;
  const headers: Record<string, string> = { 'X-Client-Id': clientId(), Accept: 'application/json', ...request.headers };
  const server = serverRequestOf(extra);
  if (server) headers.Cookie = server.cookie;
  let body: string | FormData | undefined;
  // A form (file uploads) goes as multipart: the browser sets its Content-Type with the boundary.
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  let response: Response;
  try {
    response = await fetch(server ? server.origin + request.url : request.url, {
      method: request.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal,
    });
  } catch (cause) {
    const text = cause instanceof Error ? cause.message : 'Network error';
    return { error: { status: 0, statusText: 'Network Error', bodyText: text, reqId: null, message: `0: ${text}` } };
  }
  const reqId = response.headers.get('X-Request-Id');
  const text = await response.text().catch(() => '');
  let json: unknown;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!response.ok) {
    const error: ApiError = {
      status: response.status,
      statusText: response.statusText,
      bodyText: text,
      ...(json === undefined ? {} : { bodyJson: json }),
      reqId,
      message: `${response.status}: ${text || response.statusText}`,
    };
    // Logged, then handed back (RTK Query rethrows on unwrap). Server faults are errors worth
    // sending home; the 4xx answers forms expect stay in the console.
    const context = { status: error.status, url: request.url, method: request.method ?? 'GET', reqId };
    if (response.status >= 500) logger.error(error.message, context);
    else logger.debug(error.message, context);
    // (On the server there is no page to send elsewhere: the browser meets the 401 itself.)
    if (response.status === 401 && extraOptions?.on401 !== 'error' && !server) handleUnauthorized();
    return { error };
  }
  return { data: json ?? (text || null) };
};

/**
 * Tag types every feature may use; a feature needing a new one adds it here (one line) or via
 * `api.enhanceEndpoints({ addTagTypes: [...] })`.
 */
export const TAG_TYPES = ['CurrentUser', 'SubscriptionStatus'] as const;

/**
 * The single RTK Query api (DESIGN §9). Features add endpoints with `api.injectEndpoints`.
 * SPEC §9 defaults: no retry (base query never retries), no refetch on focus, no polling,
 * data never stale, unused data dropped after 5 minutes.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  keepUnusedDataFor: 300,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
});

/**
 * `useDispatch<ApiDispatch>()`: a dispatch that runs this api's thunks (`endpoints.x.initiate`)
 * and actions (`util.invalidateTags`), for features (which do not import the store of app/).
 */
export type ApiDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;
