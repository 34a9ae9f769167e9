import { MemoryRouter } from '@app/router';
import { AppThemeProvider } from '@app/ui';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders a page the way the shell does: inside the theme and a router. */
export function renderPage(ui: ReactElement, path = '/') {
  return render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </AppThemeProvider>,
  );
}
