import { Providers } from '@app/test-utils';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders a page the way the shell does: inside its providers, at `path`. */
export function renderPage(ui: ReactElement, path = '/') {
  return render(<Providers path={path}>{ui}</Providers>);
}
