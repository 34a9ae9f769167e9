import { AppThemeProvider } from '@app/ui';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import OverrideBanner from './override-banner';
import { noteOverrideFailed, takeOverrideParam } from './override-status';

const grant = {
  remote: 'mf-research' as const,
  entry: 'http://127.0.0.1:3102/mf-manifest.json',
  origin: 'http://127.0.0.1:3102',
  expiresAt: '2026-11-22T20:00:00.000Z',
};
const show = (state: Parameters<typeof OverrideBanner>[0]['state']) =>
  render(
    <AppThemeProvider>
      <OverrideBanner state={state} />
    </AppThemeProvider>,
  );

afterEach(() => vi.restoreAllMocks());

describe('the dev override banner (issue 47)', () => {
  it('names the remote and the dev server; Exit asks the edge to clear the cookie, then reloads', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (url) =>
        String(url) === grant.entry
          ? Response.json({ id: 'mf_research' })
          : new Response(null, { status: 204 }),
      );
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    show({ status: 'active', grant });
    const banner = screen.getByRole('status', { name: 'Dev override' });
    expect(banner).toHaveTextContent('Developing mf-research from http://127.0.0.1:3102');
    await act(async () => {});
    expect(banner).toHaveTextContent('Developing mf-research from http://127.0.0.1:3102');
    await userEvent.click(screen.getByRole('button', { name: 'Exit override' }));
    expect(fetch).toHaveBeenCalledWith('/_edge/exit-override', expect.objectContaining({ method: 'POST' }));
    expect(reload).toHaveBeenCalled();
  });

  it('says the live version is shown when the dev server does not answer', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    show({ status: 'active', grant });
    expect(await screen.findByText(/is not reachable: showing the live mf-research/)).toBeInTheDocument();
  });

  it('says so when the remote failed to load from the dev server, even if its manifest answered', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({}));
    show({ status: 'active', grant });
    act(() => noteOverrideFailed());
    expect(screen.getByRole('status', { name: 'Dev override' })).toHaveTextContent(
      'Dev server http://127.0.0.1:3102 is not reachable: showing the live mf-research',
    );
  });

  it('says why a link was refused, once', async () => {
    show({ status: 'refused', message: 'This override link has expired.' });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Override link refused: This override link has expired.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes a refused ?override= out of the address bar', () => {
    window.history.replaceState(null, '', '/research-center?tab=x&override=mfo_abc#top');
    takeOverrideParam();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/research-center?tab=x#top',
    );
  });
});
