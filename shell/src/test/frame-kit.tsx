import { configureApi } from '@app/api-client';
import { MemoryRouter, Route, Routes } from '@app/router';
import { SessionProvider } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, vi } from 'vitest';
import { Nav } from '../frame/nav';

/**
 * For the frame's tests: an API whose answers do not matter (the profile request of a logged-in session
 * fails quietly) and a browser without a colour-scheme preference.
 */
export function useQuietApi() {
  beforeAll(() => {
    configureApi({ baseUrl: 'http://api.test' });
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 500 }));
    window.matchMedia = vi.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
  });
}

/** The shell's nav above `page` (every path), at `path`, with what follows the page (the footer). */
export function renderWithNav(path: string, page: ReactNode, after?: ReactNode) {
  return render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>
          <Nav />
          <Routes>
            <Route path="*" element={page} />
          </Routes>
          {after}
        </SessionProvider>
      </MemoryRouter>
    </AppThemeProvider>,
  );
}
