import { useCallback, useEffect, useRef, useState } from 'react';

/** Moves focus to the first named control of the form that has an error (DOM order = reading order). */
export function focusFirstError(form: HTMLFormElement | null, names: readonly string[]): void {
  if (!form) return;
  const wanted = new Set(names);
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLElement && wanted.has(element.getAttribute('name') ?? '')) {
      element.focus();
      return;
    }
  }
}

/**
 * Asks for focus to move once the render that the same handler's state changes cause has committed (to a
 * field that this render enables or creates). The request is state, not a ref: a ref set in a handler can be
 * consumed by an earlier render's pending effect, before the field exists, leaving focus on <body> (seen on a
 * slow CI machine, stop 52).
 */
export function useFocusAfterRender<T>(apply: (target: T) => void): (target: T) => void {
  const [request, setRequest] = useState<{ target: T } | null>(null);
  const latestApply = useRef(apply);
  latestApply.current = apply;
  useEffect(() => {
    if (request) latestApply.current(request.target);
  }, [request]);
  return useCallback((target: T) => setRequest({ target }), []);
}
