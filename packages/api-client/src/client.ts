import { LIMITS } from '@app/contracts';
import ky, { HTTPError, TimeoutError } from 'ky';
import * as v from 'valibot';
import { ApiError, parseErrorBody } from './errors';
import { readToken, writeToken } from './token-store';

type Schema<T> = v.GenericSchema<unknown, T>;

export interface CallOptions {
  searchParams?: URLSearchParams | Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A 401 always clears the token. By default it also sends the browser to /login (SPEC §8). Screens that
   * show their own 'session expired' message first (Research, Profile) pass false and decide themselves.
   */
  redirectOn401?: boolean;
}

let baseUrl = '';
let onUnauthorized: () => void = () => window.location.assign('/login');

/** Called once at startup with the validated runtime config (shell) or the dev frame's defaults. */
export function configureApi(options: { baseUrl: string; onUnauthorized?: () => void }): void {
  baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (options.onUnauthorized) onUnauthorized = options.onUnauthorized;
}

export function getApiBaseUrl(): string {
  return baseUrl;
}

/** The one ky instance of the app: 10 s timeout, no automatic retries, Bearer token when present. */
const http = ky.create({
  timeout: LIMITS.httpTimeoutMs,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = readToken();
        if (token && !request.headers.has('Authorization'))
          request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
  },
});

function toSearchParams(params: CallOptions['searchParams']): URLSearchParams | undefined {
  if (!params || params instanceof URLSearchParams) return params;
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) out.set(key, String(value));
  return out;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function toApiError(error: unknown, sentToken: boolean, options: CallOptions): Promise<unknown> {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const body = parseErrorBody(await readJson(error.response).catch(() => undefined));
    if (status === 401 && sentToken) {
      writeToken(null, 'expired');
      if (options.redirectOn401 !== false) onUnauthorized();
    }
    return new ApiError(body?.error ?? error.message, status, body);
  }
  if (error instanceof TimeoutError) return new ApiError('The request timed out', 0, null);
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  return new ApiError(error instanceof Error ? error.message : 'Network error', 0, null);
}

/** A parsed body together with the response headers (paged lists carry their next cursor in one). */
export interface WithHeaders<T> {
  data: T;
  headers: Headers;
}

async function call<T>(
  method: string,
  path: string,
  schema: Schema<T> | null,
  body: unknown,
  options: CallOptions = {},
): Promise<T> {
  return (await callWithHeaders(method, path, schema, body, options)).data;
}

async function callWithHeaders<T>(
  method: string,
  path: string,
  schema: Schema<T> | null,
  body: unknown,
  options: CallOptions = {},
): Promise<WithHeaders<T>> {
  const sentToken = readToken() !== null;
  let data: unknown;
  let headers: Headers;
  try {
    const response = await http(`${baseUrl}${path}`, {
      method,
      json: body,
      searchParams: toSearchParams(options.searchParams),
      headers: options.headers,
      signal: options.signal,
    });
    headers = response.headers;
    data = await readJson(response);
  } catch (error) {
    throw await toApiError(error, sentToken, options);
  }
  if (!schema) return { data: data as T, headers };
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) throw new ApiError('Unexpected response from the server', 200, null);
  return { data: parsed.output, headers };
}

/** Typed calls: pass a contracts schema to validate the response, or null to ignore the body. */
export const api = {
  get: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    call('GET', path, schema, undefined, options),
  /** A GET whose caller also needs the response headers (for example X-Next-Cursor of a paged list). */
  getWithHeaders: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    callWithHeaders('GET', path, schema, undefined, options),
  post: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    call('POST', path, schema, body, options),
  put: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    call('PUT', path, schema, body, options),
  delete: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    call('DELETE', path, schema, undefined, options),
};
