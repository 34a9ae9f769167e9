import { type ComponentType, createElement, use } from 'react';

const everyPreload: Array<() => Promise<unknown>> = [];

/** Evaluates every deferred component made so far (those of the modules imported before the call). */
export async function preloadDeferred(): Promise<void> {
  await Promise.all(everyPreload.map((preload) => preload()));
}

/**
 * A component whose modules are evaluated the first time it renders, not when the remote loads (issue 16).
 * The loader is a dynamic import in webpack's eager mode: the code stays in the remote's own chunks, so
 * nothing more is requested, but evaluating it waits for the route that needs it. On a phone, evaluating
 * all of the remote at once (the post page, the editor, marked and DOMPurify on the Research Center too)
 * was one long task of 70–150 ms.
 *
 * The first render suspends once, until the evaluation is done: on arrival the shell's region keeps showing
 * its loading state (the pre-rendered picture), and navigations are transitions, which keep the old page.
 * `preload()` evaluates it ahead; `preloadDeferred()` evaluates every one, for a server render, which
 * cannot wait.
 */
export function deferredComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  let component: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    loading ??= load().then((loaded) => {
      component = loaded;
      return loaded;
    });
    return loading;
  };
  everyPreload.push(preload);
  function Deferred(props: P) {
    const Component: ComponentType<P> = component ?? use(preload());
    return createElement(Component, props);
  }
  return Object.assign(Deferred, { preload });
}
