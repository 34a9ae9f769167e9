import { Route, Routes, useLocation } from '@app/router';
import { STAY_ON_EXPIRY } from '@app/session';
import { Providers } from '@app/test-utils';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import App from '../app';
import { preloadDeferred } from '../components/deferred-component';

// The post page and the editor are evaluated on first use (components/deferred-component.ts); under vitest that
// first use transforms their modules, which can outlast a findBy's second. Tested on its own in
// deferred-component.test.tsx.
await preloadDeferred();

/** Shows where the app navigated to, so tests can assert on it. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** The remote as the shell renders it: theme, session and router around the remote's own routes. */
export function renderApp(path: string) {
  const user = userEvent.setup();
  const result = render(
    <Providers path={path} expiry={STAY_ON_EXPIRY}>
      <App />
      <Routes>
        <Route path="*" element={<LocationProbe />} />
      </Routes>
    </Providers>,
  );
  return { user, ...result };
}

export function renderWithProviders(ui: ReactElement, path = '/') {
  const user = userEvent.setup();
  const result = render(
    <Providers path={path} expiry={STAY_ON_EXPIRY}>
      {ui}
      <LocationProbe />
    </Providers>,
  );
  return { user, ...result };
}
