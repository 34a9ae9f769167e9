import { AppThemeProvider } from '@app/ui';
import { act, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetPrerenderedRegion, prerenderedFallback, takePrerenderedRegion } from './prerendered-region';
import { RemoteRegion } from './remote-region';

// The remote's code arrives when the test says so.
let arrive: (module: { default: () => ReactElement }) => void = () => undefined;
vi.mock('./remotes', () => ({
  loadRemoteApp: () =>
    new Promise((resolve) => {
      arrive = resolve;
    }),
  currentChoice: () => ({ fallback: null }),
  fallBackToStable: () => false,
  RemoteLoadError: class extends Error {},
}));

/** The page as the edge sends it for `/about` (services/edge/src/page.ts). */
function serverPage(path = '/about') {
  const doc = document.implementation.createHTMLDocument('page');
  doc.body.innerHTML = `<div id="root"><main><div data-prerendered-region="mf-public-pages" data-path="${path}"><h1>About us</h1><p>From the HTML</p></div></main></div>`;
  return doc;
}

afterEach(() => forgetPrerenderedRegion());

describe('the server-rendered region', () => {
  it('is offered only to its own remote at its own path', () => {
    takePrerenderedRegion(serverPage());
    // The page names the remote by package, the shell's route table by container.
    expect(prerenderedFallback('mf_public_pages', '/about')).toBeDefined();
    expect(prerenderedFallback('mf_public_pages', '/contact')).toBeUndefined();
    expect(prerenderedFallback('mf_account', '/about')).toBeUndefined();
  });

  it('is nothing when the page has none', () => {
    const doc = document.implementation.createHTMLDocument('page');
    takePrerenderedRegion(doc);
    expect(prerenderedFallback('mf_public_pages', '/')).toBeUndefined();
  });

  it('stays on screen, inert, until the remote has rendered, then is never offered again', async () => {
    takePrerenderedRegion(serverPage());
    const onRendered = vi.fn(forgetPrerenderedRegion);
    render(
      <AppThemeProvider>
        <RemoteRegion
          name="mf_public_pages"
          props={{}}
          fallback={prerenderedFallback('mf_public_pages', '/about')}
          onRendered={onRendered}
        />
      </AppThemeProvider>,
    );
    // No skeleton in between: the picture from the HTML, out of reach of keyboard and screen readers.
    const picture = screen.getByText('From the HTML');
    expect(picture.closest('[inert][aria-hidden="true"]')).not.toBeNull();
    expect(document.querySelector('[aria-busy="true"]')).toBeNull(); // no skeleton
    expect(onRendered).not.toHaveBeenCalled();

    await act(async () => arrive({ default: () => <h1>About us (live)</h1> }));
    expect(await screen.findByRole('heading', { name: 'About us (live)' })).toBeVisible();
    expect(screen.queryByText('From the HTML')).toBeNull();
    expect(onRendered).toHaveBeenCalledTimes(1);
    expect(prerenderedFallback('mf_public_pages', '/about')).toBeUndefined();
  });
});
