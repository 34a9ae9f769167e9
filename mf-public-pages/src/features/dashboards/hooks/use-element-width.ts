import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * The element's width in CSS pixels, measured before the first paint and on every resize, so a chart draws
 * at its real size: scaling a fixed viewBox would shrink its labels to a few pixels on a phone.
 * `fallback` serves where layout is not measured (tests, the first server-side frame).
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const w = Math.round(element.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
