import { describe, expect, it } from 'vitest';
import { findRoute, REDIRECTS } from './route-table';

describe('route table', () => {
  it.each([
    ['/', 'mf_public_pages'],
    ['/about', 'mf_public_pages'],
    ['/contact', 'mf_public_pages'],
    ['/impressum', 'mf_public_pages'],
    ['/plans', 'mf_public_pages'],
    ['/dashboards/market-pulse', 'mf_public_pages'],
    ['/login', 'mf_account'],
    ['/register', 'mf_account'],
    ['/profile', 'mf_account'],
    ['/research-center', 'mf_research'],
    ['/research', 'mf_research'],
    ['/create-post', 'mf_research'],
    ['/post/42', 'mf_research'],
    ['/post/42/edit', 'mf_research'],
  ])('maps %s to %s', (path, remote) => {
    expect(findRoute(path)?.remote).toBe(remote);
  });

  it('guards only /profile by token', () => {
    expect(findRoute('/profile')?.requiresToken).toBe(true);
    expect(findRoute('/research-center')?.requiresToken).toBeUndefined();
  });

  it('sends every redirect to a page a remote serves, never to another redirect or a path of its own', () => {
    const redirects = Object.entries(REDIRECTS);
    expect(redirects.length).toBeGreaterThan(0);
    for (const [from, to] of redirects) {
      expect(findRoute(from), `${from} is also a route`).toBeUndefined();
      expect(findRoute(to), `${from} goes to ${to}, which no remote serves`).toBeDefined();
      expect(REDIRECTS[to], `${to} redirects again`).toBeUndefined();
    }
  });

  it('leaves unknown paths to the not-found page', () => {
    expect(findRoute('/nope')).toBeUndefined();
    expect(findRoute('/post')).toBeUndefined();
    expect(findRoute('/post//edit')).toBeUndefined();
    expect(findRoute('/about/more')).toBeUndefined();
    expect(findRoute('/dashboards')).toBeUndefined();
  });

  it('ignores a trailing slash', () => {
    expect(findRoute('/about/')?.remote).toBe('mf_public_pages');
    expect(findRoute('/post/7/')?.remote).toBe('mf_research');
  });
});
