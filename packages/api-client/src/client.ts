import { LIMITS } from '@app/contracts';
import ky, { HTTPError, TimeoutError } from 'ky';
import * as v from 'valibot';
import { ApiError, parseErrorBody } from './errors';
import { primedResponse, requestKey } from './primed';
import { steppedUp } from './step-up';
import { readToken, writeToken } from './token-store';

type Schema<T> = v.GenericSchema<unknown, T>;

export interface CallOptions {
  searchParams?: URLSearchParams | Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

let baseUrl = '';

/** Called once at startup with the validated runtime config (shell) or the dev frame's defaults. */
export function configureApi(options: { baseUrl: string }): void {
  baseUrl = options.baseUrl.replace(/\/+$/, '');
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

/**
 * SPEC §8: a 401 to a request that carried the stored token ends the session: the token is cleared with the
 * reason 'expired', and @app/session decides what the visitor sees (one flow for every screen). A token
 * that changed meanwhile (a logout, a new login) is left alone: the 401 is about a session already gone.
 */
function endExpiredSession(status: number, sentToken: string | null): void {
  if (status === 401 && sentToken !== null && readToken() === sentToken) writeToken(null, 'expired');
}

async function toApiError(error: unknown, sentToken: string | null): Promise<unknown> {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const body = parseErrorBody(await readJson(error.response).catch(() => undefined));
    endExpiredSession(status, sentToken);
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

/** One request through the one ky instance; `read` takes the body. Every failure becomes an ApiError. */
async function send<B>(
  method: string,
  path: string,
  body: unknown,
  options: CallOptions,
  read: (response: Response) => Promise<B>,
  stepUp = true,
): Promise<WithHeaders<B>> {
  const sentToken = readToken();
  try {
    const response = await http(`${baseUrl}${path}`, {
      method,
      json: body,
      searchParams: toSearchParams(options.searchParams),
      headers: options.headers,
      signal: options.signal,
    });
    return { data: await read(response), headers: response.headers };
  } catch (error) {
    const failure = await toApiError(error, sentToken);
    // Issue 46: a sensitive admin action, refused until a code is verified: once, after the shell's dialog.
    if (stepUp && failure instanceof ApiError && (await steppedUp(failure)))
      return send(method, path, body, options, read, false);
    throw failure;
  }
}

async function callWithHeaders<T>(
  method: string,
  path: string,
  schema: Schema<T> | null,
  body: unknown,
  options: CallOptions = {},
): Promise<WithHeaders<T>> {
  const { data, headers } = await send(method, path, body, options, readJson);
  if (!schema) return { data: data as T, headers };
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) throw new ApiError('Unexpected response from the server', 200, null);
  return { data: parsed.output, headers };
}

/**
 * The answer the page was primed with for this GET (primed.ts), validated like a fetched one, or undefined:
 * not primed, a token is stored, or the body does not match (the caller then fetches as usual).
 */
function peekWithHeaders<T>(
  path: string,
  schema: Schema<T>,
  options: CallOptions = {},
): WithHeaders<T> | undefined {
  const primed = primedResponse(requestKey(path, toSearchParams(options.searchParams)));
  if (!primed) return undefined;
  const parsed = v.safeParse(schema, primed.body);
  return parsed.success ? { data: parsed.output, headers: new Headers(primed.headers) } : undefined;
}

/** Typed calls: pass a contracts schema to validate the response, or null to ignore the body. */
export const api = {
  get: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    call('GET', path, schema, undefined, options),
  /** A GET whose caller also needs the response headers (for example X-Next-Cursor of a paged list). */
  getWithHeaders: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    callWithHeaders('GET', path, schema, undefined, options),
  /** Synchronously, the primed answer to a GET (a first render that needs no request), else undefined. */
  peek: <T>(path: string, schema: Schema<T>, options?: CallOptions) =>
    peekWithHeaders(path, schema, options)?.data,
  peekWithHeaders,
  post: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    call('POST', path, schema, body, options),
  put: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    call('PUT', path, schema, body, options),
  delete: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    call('DELETE', path, schema, undefined, options),
  /**
   * A GET whose answer is a file (a CSV export), as a Blob. The API reads the session from the Authorization
   * header only, so a plain link would arrive without it: the file is fetched here, with the token.
   */
  getBlob: async (path: string, options: CallOptions = {}) =>
    (await send('GET', path, undefined, options, (response) => response.blob())).data,
};
