import { MemoryRouter } from '@app/router';
import { AppThemeProvider } from '@app/ui';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders inside the theme and a router, as the shell does. */
export function renderWithTheme(ui: ReactElement) {
  return render(
    <AppThemeProvider>
      <MemoryRouter>{ui}</MemoryRouter>
    </AppThemeProvider>,
  );
}
