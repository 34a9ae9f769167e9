import { LoginResponseSchema } from '@app/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from './client';
import {
  forgetPrimedResponses,
  PRIMED_RESPONSES_SELECTOR,
  primeResponses,
  readPrimedResponses,
  requestKey,
} from './primed';
import { writeToken } from './token-store';

afterEach(() => {
  forgetPrimedResponses();
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('answers primed into the page', () => {
  it('keys a GET by its path and query as the client sends them', () => {
    expect(
      requestKey(
        '/api/posts',
        new URLSearchParams([
          ['visibility', 'public'],
          ['limit', '50'],
        ]),
      ),
    ).toBe('/api/posts?visibility=public&limit=50');
    expect(requestKey('/api/posts/tags')).toBe('/api/posts/tags');
  });

  it('gives a guest the primed answer, validated, with its headers', () => {
    primeResponses({
      '/api/thing?x=1': { body: { token: 't' }, headers: { 'x-next-cursor': 'abc' } },
    });
    const primed = api.peekWithHeaders('/api/thing', LoginResponseSchema, { searchParams: { x: 1 } });
    expect(primed?.data).toEqual({ token: 't' });
    expect(primed?.headers.get('X-Next-Cursor')).toBe('abc');
    expect(api.peek('/api/thing', LoginResponseSchema, { searchParams: { x: 2 } })).toBeUndefined();
  });

  it('never answers a member, a body that does not match, or after it was forgotten', () => {
    primeResponses({ '/api/thing': { body: { token: 't' } }, '/api/other': { body: { nope: 1 } } });
    expect(api.peek('/api/other', LoginResponseSchema)).toBeUndefined();
    writeToken('member-token');
    expect(api.peek('/api/thing', LoginResponseSchema)).toBeUndefined();
    writeToken(null);
    expect(api.peek('/api/thing', LoginResponseSchema)).toEqual({ token: 't' });
    forgetPrimedResponses();
    expect(api.peek('/api/thing', LoginResponseSchema)).toBeUndefined();
  });

  it('reads the data block the server wrote, and nothing from a broken one', () => {
    document.body.innerHTML = `<script type="application/json" data-primed-responses>{"/api/a":{"body":[1]}}</script>`;
    expect(document.querySelector(PRIMED_RESPONSES_SELECTOR)).not.toBeNull();
    expect(readPrimedResponses()).toEqual({ '/api/a': { body: [1] } });
    document.body.innerHTML = `<script type="application/json" data-primed-responses>{oops</script>`;
    expect(readPrimedResponses()).toEqual({});
    document.body.innerHTML = '';
    expect(readPrimedResponses()).toEqual({});
  });
});
