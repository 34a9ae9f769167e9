import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useServerState } from './index';

/** A loader whose answers the test releases by hand, in any order. */
function deferredLoader() {
  const calls: {
    query: string;
    signal: AbortSignal;
    resolve: (v: string) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const load = (query: string) => (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => calls.push({ query, signal, resolve, reject }));
  return { calls, load };
}

function Screen({
  loader,
  initial = 'a',
  primed,
}: {
  loader: ReturnType<typeof deferredLoader>;
  initial?: string;
  primed?: string;
}) {
  const [query, setQuery] = useState(initial);
  const state = useServerState(loader.load(query), [query], true, () => primed);
  return (
    <div>
      <p>status: {state.status}</p>
      <p>data: {state.data ?? 'none'}</p>
      <button type="button" onClick={() => setQuery('b')}>
        ask b
      </button>
      <button type="button" onClick={state.reload}>
        retry
      </button>
    </div>
  );
}

describe('useServerState', () => {
  it('shows loading from the first render, then the answer', async () => {
    const loader = deferredLoader();
    render(<Screen loader={loader} />);
    expect(screen.getByText('status: loading')).toBeInTheDocument();
    await act(async () => loader.calls[0]?.resolve('answer a'));
    expect(screen.getByText('status: done')).toBeInTheDocument();
    expect(screen.getByText('data: answer a')).toBeInTheDocument();
  });

  it('never lets a late answer to an old question overwrite the current one', async () => {
    const loader = deferredLoader();
    render(<Screen loader={loader} />);
    act(() => screen.getByRole('button', { name: 'ask b' }).click());
    expect(loader.calls.map((c) => c.query)).toEqual(['a', 'b']);
    expect(loader.calls[0]?.signal.aborted).toBe(true);
    await act(async () => loader.calls[1]?.resolve('answer b'));
    await act(async () => loader.calls[0]?.resolve('answer a'));
    expect(screen.getByText('data: answer b')).toBeInTheDocument();
  });

  it('keeps what it had when a reload fails, and Retry asks again', async () => {
    const loader = deferredLoader();
    render(<Screen loader={loader} />);
    await act(async () => loader.calls[0]?.resolve('first'));
    act(() => screen.getByRole('button', { name: 'retry' }).click());
    expect(screen.getByText('status: loading')).toBeInTheDocument();
    await act(async () => loader.calls[1]?.reject(new Error('offline')));
    expect(screen.getByText('status: error')).toBeInTheDocument();
    expect(screen.getByText('data: first')).toBeInTheDocument();
    expect(loader.calls).toHaveLength(2);
  });

  it('stays idle and asks nothing while disabled', () => {
    const loader = deferredLoader();
    function Disabled() {
      const state = useServerState(loader.load('x'), [], false);
      return <p>status: {state.status}</p>;
    }
    render(<Disabled />);
    expect(screen.getByText('status: idle')).toBeInTheDocument();
    expect(loader.calls).toHaveLength(0);
  });

  it('starts done with data it already has, asks nothing on mount, and loads when the question changes', async () => {
    const loader = deferredLoader();
    render(<Screen loader={loader} primed="from the page" />);
    expect(screen.getByText('status: done')).toBeInTheDocument();
    expect(screen.getByText('data: from the page')).toBeInTheDocument();
    expect(loader.calls).toHaveLength(0);
    act(() => screen.getByRole('button', { name: 'ask b' }).click());
    expect(loader.calls.map((c) => c.query)).toEqual(['b']);
    await act(async () => loader.calls[0]?.resolve('answer b'));
    expect(screen.getByText('data: answer b')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'retry' }).click());
    expect(loader.calls).toHaveLength(2);
  });

  it('with refresh, starts done with the data it has, loads once on mount and keeps showing it meanwhile', async () => {
    const loader = deferredLoader();
    function Refreshed() {
      const state = useServerState(loader.load('a'), [], true, () => 'from the page', { refresh: true });
      return (
        <p>
          {state.status}: {state.data}
        </p>
      );
    }
    render(<Refreshed />);
    expect(loader.calls.map((c) => c.query)).toEqual(['a']);
    expect(screen.getByText('loading: from the page')).toBeInTheDocument();
    await act(async () => loader.calls[0]?.resolve('answer a'));
    expect(screen.getByText('done: answer a')).toBeInTheDocument();
    expect(loader.calls).toHaveLength(1);
  });

  it('ignores initial data while disabled', () => {
    const loader = deferredLoader();
    function Disabled() {
      const state = useServerState(loader.load('x'), [], false, () => 'primed');
      return <p>status: {state.status}</p>;
    }
    render(<Disabled />);
    expect(screen.getByText('status: idle')).toBeInTheDocument();
  });
});
