import { AppThemeProvider } from '@app/ui';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PREVIEW_KEY, takePreviewParam, verifyPreview } from './preview';
import { PreviewBanner } from './preview-banner';

const grant = {
  remote: 'mf-research',
  version: '1.4.0-abc123def4',
  expiresAt: '2026-11-22T20:00:00.000Z',
  integrity: `sha384-${'P'.repeat(64)}`,
};
const answer = (status: number, body: unknown) =>
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status }));

afterEach(() => vi.restoreAllMocks());

describe('preview links', () => {
  it('moves ?preview= from the address bar into storage, keeping the rest of the URL', () => {
    window.history.replaceState(null, '', '/research-center?tab=explore&preview=tok.sig#top');
    takePreviewParam();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/research-center?tab=explore#top',
    );
    expect(localStorage.getItem(PREVIEW_KEY)).toBe('tok.sig');
  });

  it('asks the API to verify a stored token and activates what it grants', async () => {
    localStorage.setItem(PREVIEW_KEY, 'tok.sig');
    const fetch = answer(200, grant);
    expect(await verifyPreview('http://api.test')).toEqual({ status: 'active', grant });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('http://api.test/api/rollout/preview');
    expect(JSON.parse(String(init.body))).toEqual({ token: 'tok.sig' });
  });

  it('forgets a refused token and says why', async () => {
    localStorage.setItem(PREVIEW_KEY, 'tok.sig');
    answer(400, { error: 'This preview link has expired.' });
    expect(await verifyPreview('http://api.test')).toEqual({
      status: 'refused',
      message: 'This preview link has expired.',
    });
    expect(localStorage.getItem(PREVIEW_KEY)).toBeNull();
  });

  it('keeps the token when the API cannot be reached, and serves the live versions meanwhile', async () => {
    localStorage.setItem(PREVIEW_KEY, 'tok.sig');
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    expect((await verifyPreview('http://api.test')).status).toBe('refused');
    expect(localStorage.getItem(PREVIEW_KEY)).toBe('tok.sig');
  });

  it('does nothing without a token', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    expect(await verifyPreview('http://api.test')).toEqual({ status: 'none' });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('preview banner', () => {
  it('says what is previewed, and Exit preview forgets it and reloads', async () => {
    localStorage.setItem(PREVIEW_KEY, 'tok.sig');
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    render(
      <AppThemeProvider>
        <PreviewBanner state={{ status: 'active', grant: { ...grant, remote: 'mf-research' as const } }} />
      </AppThemeProvider>,
    );
    const banner = screen.getByRole('status', { name: 'Preview' });
    expect(banner).toHaveTextContent('Previewing mf-research 1.4.0-abc123def4 · Exit preview');
    await userEvent.click(screen.getByRole('button', { name: 'Exit preview' }));
    expect(localStorage.getItem(PREVIEW_KEY)).toBeNull();
    expect(reload).toHaveBeenCalled();
  });

  it('shows a refusal until dismissed', async () => {
    render(
      <AppThemeProvider>
        <PreviewBanner state={{ status: 'refused', message: 'This preview link is not valid.' }} />
      </AppThemeProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Preview link refused: This preview link is not valid.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
