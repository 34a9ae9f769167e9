import { css, type Theme } from '@emotion/react';
import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PERF_THRESHOLDS, type Rating, rate } from './thresholds';

/** Off unless config.features.performanceMonitor is true or the page is opened with ?perf=1. */
export function isPerformanceMonitorOn(configFlag: boolean): boolean {
  return configFlag || new URLSearchParams(window.location.search).get('perf') === '1';
}

interface Metrics {
  loadMs: number | null;
  renderMs: number | null;
  memoryMb: number | null;
}

const ratingColor: Record<Rating, string> = { good: '#2e9e5b', fair: '#d69a00', poor: '#d64545' };

function Row({
  label,
  value,
  unit,
  rating,
}: {
  label: string;
  value: number | null;
  unit: string;
  rating: Rating | null;
}) {
  return (
    <div css={css`display: flex; justify-content: space-between; gap: 12px;`}>
      <span>{label}</span>
      <span
        data-rating={rating ?? 'n/a'}
        css={css`color: ${rating ? ratingColor[rating] : 'inherit'}; font-weight: 700;`}
      >
        {value === null ? 'n/a' : `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`}
      </span>
    </div>
  );
}

/**
 * Times a render of the tree below it: from this component's render (parents render before children) to
 * its layout effect (which runs after every child has committed). React's <Profiler> would be finer, but it
 * reports nothing in production builds, which is where the monitor is meant to be switched on.
 */
function RenderTimer({
  lastRender,
  children,
}: {
  lastRender: RefObject<number | null>;
  children: ReactNode;
}) {
  const started = performance.now();
  useLayoutEffect(() => {
    lastRender.current = performance.now() - started;
  });
  return children;
}

/** The panel keeps its own state, so its once-a-second refresh never re-renders (or times) the app. */
function MonitorPanel({ lastRender }: { lastRender: RefObject<number | null> }) {
  const [metrics, setMetrics] = useState<Metrics>({ loadMs: null, renderMs: null, memoryMb: null });

  useEffect(() => {
    const timer = setInterval(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const memory = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
      setMetrics({
        loadMs: nav && nav.loadEventEnd > 0 ? nav.loadEventEnd - nav.startTime : null,
        renderMs: lastRender.current,
        memoryMb: memory ? memory.usedJSHeapSize / 1024 / 1024 : null,
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [lastRender]);

  const rated = (value: number | null, limits: { good: number; fair: number }) =>
    value === null ? null : rate(value, limits);
  return (
    <aside
      aria-label="Performance monitor"
      css={(t: Theme) => css`
        position: fixed;
        right: 12px;
        bottom: 12px;
        z-index: 2000;
        min-width: 200px;
        font: 12px/1.6 ui-monospace, monospace;
        background: ${t.color.surface};
        color: ${t.color.text};
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.sm};
        padding: 8px 12px;
        box-shadow: ${t.shadow};
      `}
    >
      <Row
        label="Load"
        value={metrics.loadMs}
        unit="ms"
        rating={rated(metrics.loadMs, PERF_THRESHOLDS.loadMs)}
      />
      <Row
        label="Render"
        value={metrics.renderMs}
        unit="ms"
        rating={rated(metrics.renderMs, PERF_THRESHOLDS.renderMs)}
      />
      <Row
        label="Memory"
        value={metrics.memoryMb}
        unit="MB"
        rating={rated(metrics.memoryMb, PERF_THRESHOLDS.memoryMb)}
      />
    </aside>
  );
}

/** The performance monitor overlay of SPEC §2/§9: page load, last app render and JS heap, rated. */
export function PerformanceMonitor({ children }: { children: ReactNode }) {
  const lastRender = useRef<number | null>(null);
  return (
    <>
      <RenderTimer lastRender={lastRender}>{children}</RenderTimer>
      <MonitorPanel lastRender={lastRender} />
    </>
  );
}
