import { api } from '@app/api-client';
import { act } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { SetupServerApi } from 'msw/node';
import { afterEach, beforeEach, expect } from 'vitest';

/** What msw hands an `onUnhandledRequest` callback: its own 'warn' and 'error' strategies. */
interface UnhandledPrint {
  error(): void;
}

/**
 * msw's `onUnhandledRequest: 'error'` that also fails the test which sent the request. 'error' alone only
 * logs and fails the request, which a screen may well swallow (it shows an error state, the test passes),
 * and then emits no `request:unhandled` event. Use it as `server.listen({ onUnhandledRequest: … })`, once
 * per test file, at the top level (it registers the check as hooks).
 */
export function failOnUnhandledRequests(): (request: Request, print: UnhandledPrint) => void {
  const unhandled: string[] = [];
  beforeEach(() => {
    unhandled.length = 0;
  });
  afterEach(() => {
    expect(unhandled, 'requests no handler answered').toEqual([]);
  });
  return (request, print) => {
    unhandled.push(`${request.method} ${request.url}`);
    // msw's own 'error': prints the request and fails it.
    print.error();
  };
}

/** A path no screen asks for: settleRequests' own request. */
const BARRIER_PATH = '/__test/settled';

/**
 * Every request the screen sends from now on, as `METHOD path?query` in the order msw sees them
 * (settleRequests' own excluded).
 */
export function recordRequests(server: SetupServerApi): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname !== BARRIER_PATH) seen.push(`${request.method} ${url.pathname}${url.search}`);
  });
  return seen;
}

/**
 * Resolves once every request the screen has started so far has reached msw, with no fixed wait: a request
 * of its own through the same api client (the same steps: token, hooks, fetch) starts after theirs, so when
 * msw has answered it, theirs have arrived. A screen that asked nothing on render is then proven to ask
 * nothing, however slow the machine, instead of "nothing within 50 ms".
 */
export async function settleRequests(server: SetupServerApi, baseUrl: string): Promise<void> {
  server.use(http.get(`${baseUrl}${BARRIER_PATH}`, () => HttpResponse.json(null)));
  await act(async () => {
    await api.get(BARRIER_PATH, null);
  });
}
