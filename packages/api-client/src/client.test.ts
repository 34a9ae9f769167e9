import { LoginResponseSchema } from '@app/contracts';
import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApi } from './client';
import { ApiError, errorMessage } from './errors';
import { readToken, TOKEN_CHANGED_EVENT, type TokenChangedDetail, writeToken } from './token-store';

const BASE = 'http://api.test';
const server = setupServer();
const tokenChanges = vi.fn();
const recordTokenChange = (event: Event) => tokenChanges((event as CustomEvent<TokenChangedDetail>).detail);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  configureApi({ baseUrl: BASE });
  window.addEventListener(TOKEN_CHANGED_EVENT, recordTokenChange);
});
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  window.removeEventListener(TOKEN_CHANGED_EVENT, recordTokenChange);
  tokenChanges.mockReset();
});
afterAll(() => server.close());

describe('api client', () => {
  it('sends the stored token as a Bearer header and validates the response', async () => {
    writeToken('abc123');
    server.use(
      http.get(`${BASE}/api/thing`, ({ request }) =>
        HttpResponse.json({ token: request.headers.get('authorization') }),
      ),
    );
    await expect(api.get('/api/thing', LoginResponseSchema)).resolves.toEqual({ token: 'Bearer abc123' });
  });

  it('sends no Authorization header without a token', async () => {
    server.use(
      http.get(`${BASE}/api/thing`, ({ request }) =>
        HttpResponse.json({ token: String(request.headers.has('authorization')) }),
      ),
    );
    await expect(api.get('/api/thing', LoginResponseSchema)).resolves.toEqual({ token: 'false' });
  });

  it('turns an error response into an ApiError carrying status and body', async () => {
    server.use(http.get(`${BASE}/api/x`, () => HttpResponse.json({ error: 'Nope' }, { status: 403 })));
    const error = await api.get('/api/x', null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(errorMessage(error, 'Fallback')).toBe('Nope');
  });

  it('ends the session on a 401 to a request that carried the token: cleared, with the reason expired', async () => {
    writeToken('expired');
    tokenChanges.mockReset();
    server.use(
      http.get(`${BASE}/api/x`, () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
    );
    await expect(api.get('/api/x', null)).rejects.toBeInstanceOf(ApiError);
    expect(readToken()).toBeNull();
    expect(tokenChanges).toHaveBeenCalledExactlyOnceWith({ token: null, reason: 'expired' });
  });

  it('does not treat a 401 without a token (wrong login) as an expired session', async () => {
    server.use(
      http.post(`${BASE}/api/login`, () => HttpResponse.json({ error: 'Invalid' }, { status: 401 })),
    );
    await expect(api.post('/api/login', {}, null)).rejects.toBeInstanceOf(ApiError);
    expect(tokenChanges).not.toHaveBeenCalled();
  });

  it('leaves a token alone that changed while the request was out (a 401 to a logout, a new login)', async () => {
    writeToken('old');
    const gate: { open: (() => void) | null } = { open: null };
    server.use(
      http.get(`${BASE}/api/x`, async () => {
        await new Promise<void>((resolve) => {
          gate.open = resolve;
        });
        return HttpResponse.json({ error: 'Unauthorized' }, { status: 401 });
      }),
    );
    const pending = api.get('/api/x', null).catch((e: unknown) => e);
    await vi.waitFor(() => expect(gate.open).not.toBeNull());
    writeToken('new');
    tokenChanges.mockReset();
    gate.open?.();
    expect(await pending).toBeInstanceOf(ApiError);
    expect(readToken()).toBe('new');
    expect(tokenChanges).not.toHaveBeenCalled();
  });

  it('sends repeated query parameters', async () => {
    server.use(
      http.get(`${BASE}/api/posts`, ({ request }) =>
        HttpResponse.json({ token: new URL(request.url).searchParams.getAll('visibility').join(',') }),
      ),
    );
    const params = new URLSearchParams([
      ['visibility', 'public'],
      ['visibility', 'members_only'],
    ]);
    await expect(api.get('/api/posts', LoginResponseSchema, { searchParams: params })).resolves.toEqual({
      token: 'public,members_only',
    });
  });

  it('returns the response headers beside the body when asked (the next cursor of a paged list)', async () => {
    server.use(
      http.get(`${BASE}/api/thing`, () =>
        HttpResponse.json({ token: 't' }, { headers: { 'X-Next-Cursor': 'abc' } }),
      ),
    );
    const result = await api.getWithHeaders('/api/thing', LoginResponseSchema);
    expect(result.data).toEqual({ token: 't' });
    expect(result.headers.get('x-next-cursor')).toBe('abc');
  });

  it('fetches a file as a Blob with the token, and a refusal as an ApiError with the server text', async () => {
    writeToken('abc123');
    server.use(
      http.get(`${BASE}/api/file.csv`, ({ request }) => {
        const url = new URL(request.url);
        if (request.headers.get('authorization') !== 'Bearer abc123')
          return new HttpResponse(null, { status: 500 });
        if (url.searchParams.get('deny') === 'yes')
          return HttpResponse.json({ error: 'Administrator role required' }, { status: 403 });
        return new HttpResponse('a,b\r\n1,2\r\n', { headers: { 'Content-Type': 'text/csv' } });
      }),
    );
    const blob = await api.getBlob('/api/file.csv');
    expect(await blob.text()).toBe('a,b\r\n1,2\r\n');
    const refused = await api.getBlob('/api/file.csv', { searchParams: { deny: 'yes' } }).catch((e) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, message: 'Administrator role required' });
  });

  it('rejects a response that does not match the contract', async () => {
    server.use(http.get(`${BASE}/api/x`, () => HttpResponse.json({ unexpected: true })));
    await expect(api.get('/api/x', LoginResponseSchema)).rejects.toThrow(
      'Unexpected response from the server',
    );
  });

  it('gives up after the 10 second timeout', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(
      http.get(`${BASE}/api/slow`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const pending = api.get('/api/slow', null).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_001);
    const error = await pending;
    vi.useRealTimers();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('The request timed out');
  });
});

describe('errorMessage (SPEC §8)', () => {
  const withBody = (body: Record<string, string>) =>
    new ApiError('Request failed with status code 500', 500, body);
  it('prefers the server error, then its message', () => {
    expect(errorMessage(withBody({ error: 'Server says no', message: 'ignored' }))).toBe('Server says no');
    expect(errorMessage(withBody({ message: 'A message' }))).toBe('A message');
  });
  it("uses the screen's fallback before the error's own message", () => {
    expect(errorMessage(withBody({}), 'Error loading homepage data')).toBe('Error loading homepage data');
  });
  it("then the error's own message, then 'An error occurred'", () => {
    expect(errorMessage(new Error('Boom'))).toBe('Boom');
    expect(errorMessage(new Error(''))).toBe('An error occurred');
    expect(errorMessage('weird')).toBe('An error occurred');
  });
});
