import { css, type Theme } from '@emotion/react';

const W = 480;
const H = 340;

/** A rising line for the illustration's main chart: points in the chart box (x 32..300, y 150..300). */
const LINE = [
  [32, 268],
  [77, 252],
  [122, 258],
  [167, 226],
  [212, 232],
  [257, 196],
  [300, 172],
] as const;
const linePath = LINE.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x} ${y}`).join(' ');
const areaPath = `${linePath} L300 300 L32 300 Z`;
const BARS = [46, 70, 58, 92, 80] as const;

const styles = (t: Theme) => css`
  width: 100%;
  height: auto;
  display: block;
  .panel { fill: ${t.color.surface}; stroke: ${t.color.border}; }
  .tile { fill: ${t.color.surfaceAlt}; }
  .faint { fill: ${t.color.border}; }
  .ink { fill: ${t.color.textMuted}; }
  .grid { stroke: ${t.color.border}; stroke-width: 1; }
  .area { fill: ${t.color.primary}; opacity: 0.14; }
  .line { fill: none; stroke: ${t.color.primary}; stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; }
  .dot { fill: ${t.color.surface}; stroke: ${t.color.primary}; stroke-width: 2.5; }
  .bar { fill: ${t.color.accent}; }
  .up { fill: ${t.color.success}; }
  .ring { fill: none; stroke: ${t.color.border}; stroke-width: 12; }
  .ring-value { fill: none; stroke: ${t.color.primary}; stroke-width: 12; stroke-linecap: round; }
`;

/**
 * The desktop hero's product picture: a stylised dashboard drawn in code (no image request), in the theme's
 * colours so it follows light and dark. Decorative, so hidden from assistive technology; the box keeps its
 * aspect ratio from the first paint, so nothing shifts when it renders.
 */
export function HeroVisual() {
  return (
    <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" css={styles}>
      <rect className="panel" x="1" y="1" width={W - 2} height={H - 2} rx="16" />
      {/* Window bar */}
      <circle className="faint" cx="24" cy="24" r="5" />
      <circle className="faint" cx="40" cy="24" r="5" />
      <circle className="faint" cx="56" cy="24" r="5" />
      <rect className="tile" x="180" y="16" width="120" height="16" rx="8" />
      {/* Three indicator tiles */}
      {[0, 1, 2].map((i) => (
        <g key={i} transform={`translate(${20 + i * 150} 48)`}>
          <rect className="tile" width="140" height="72" rx="10" />
          <rect className="faint" x="14" y="14" width="64" height="8" rx="4" />
          <rect className="ink" x="14" y="34" width={[72, 56, 64][i]} height="18" rx="5" />
          <path className="up" d="M112 52 l10 -14 l10 14 z" />
        </g>
      ))}
      {/* Line chart */}
      <rect className="tile" x="20" y="136" width="292" height="184" rx="10" />
      {[180, 220, 260, 300].map((y) => (
        <line key={y} className="grid" x1="32" x2="300" y1={y} y2={y} />
      ))}
      <path className="area" d={areaPath} />
      <path className="line" d={linePath} />
      {LINE.map(([x, y]) => (
        <circle key={x} className="dot" cx={x} cy={y} r="4" />
      ))}
      {/* Ring and bars */}
      <rect className="tile" x="324" y="136" width="136" height="184" rx="10" />
      <circle className="ring" cx="392" cy="190" r="32" />
      <circle
        className="ring-value"
        cx="392"
        cy="190"
        r="32"
        strokeDasharray={`${2 * Math.PI * 32 * 0.68} ${2 * Math.PI * 32}`}
        transform="rotate(-90 392 190)"
      />
      {BARS.map((h, i) => (
        <rect key={h} className="bar" x={340 + i * 22} y={304 - h * 0.7} width="14" height={h * 0.7} rx="3" />
      ))}
    </svg>
  );
}
