import { Route, Routes, useLocation } from '@app/router';
import { Providers } from '@app/test-utils';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';

/** Shows where the router went and with which state, so tests assert navigation as a user would see it. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <div
      data-testid="location"
      data-state={JSON.stringify(location.state ?? null)}
      data-search={location.search}
      data-hash={location.hash}
    >
      {location.pathname}
    </div>
  );
}

interface Options {
  path: string;
  /** The route pattern; defaults to the path. */
  route?: string;
  state?: unknown;
  /** Extra routes (e.g. the target of a redirect) rendered as a probe. */
  others?: string[];
}

/** Renders a screen inside the same providers the shell gives a remote: theme, router and session. */
export function renderScreen(ui: ReactElement, { path, route = path, state, others = [] }: Options) {
  const user = userEvent.setup({ delay: null });
  const result = render(
    <Providers path={path} state={state}>
      <Routes>
        <Route path={route} element={ui} />
        {others.map((other) => (
          <Route key={other} path={other} element={<h1>{other}</h1>} />
        ))}
      </Routes>
      <LocationProbe />
    </Providers>,
  );
  return { user, ...result };
}
