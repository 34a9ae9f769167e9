import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { deferredComponent, preloadDeferred } from './deferred-component';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('deferredComponent', () => {
  it('loads on first render, shows the loading state meanwhile, then renders with its props', async () => {
    let finish: (c: typeof Greeting) => void = () => {};
    const load = vi.fn(() => new Promise<typeof Greeting>((resolve) => (finish = resolve)));
    const Deferred = deferredComponent(load);
    expect(load).not.toHaveBeenCalled();

    // The render suspends, so it is awaited (React's act rule for components that wait on a promise).
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading</p>}>
          <Deferred name="Ada" />
        </Suspense>,
      );
    });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    await act(async () => finish(Greeting));
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders at once, without suspending, once preloaded; the loader runs once', async () => {
    const load = vi.fn(async () => Greeting);
    const Deferred = deferredComponent(load);
    await Promise.all([Deferred.preload(), preloadDeferred()]);

    render(
      <Suspense fallback={<p>Loading</p>}>
        <Deferred name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Grace')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
