import { Providers } from '@app/test-utils';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders inside the providers the shell gives the survey (theme, router, session). */
export function renderWithTheme(ui: ReactElement) {
  return render(<Providers>{ui}</Providers>);
}
