import { css, type Theme } from '@emotion/react';

/** The Container's side padding and the grid gap (theme space 4 and 5), which the breakpoints include. */
const PAGE_PADDING = 32;
const GAP = 20;

/**
 * The column counts a grid of `count` items steps through as the screen widens: only counts that fill every
 * row (4 items: 1, 2, 4 columns, never 3 + 1; 3 items: 1 or 3, never 2 + 1). A count no column number up to
 * `maxColumns` divides (5, 7) cannot be balanced; it fills rows up to three columns.
 */
export function balancedColumns(count: number, maxColumns = 4): number[] {
  const even = [1];
  for (let columns = 2; columns <= Math.min(count, maxColumns); columns++) {
    if (count % columns === 0) even.push(columns);
  }
  return even.length > 1 || count <= 1 ? even : [1, 2, 3].filter((c) => c <= Math.min(count, maxColumns));
}

/** The viewport width from which `columns` cards of at least `minWidth` px fit side by side. */
export const breakpointFor = (columns: number, minWidth: number) =>
  columns * minWidth + (columns - 1) * GAP + PAGE_PADDING;

/** A grid whose rows are full at every width: see balancedColumns. */
export const balancedGridStyles =
  (count: number, minWidth: number, maxColumns = 4) =>
  (t: Theme) =>
    css`
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: ${t.space(5)};
    ${balancedColumns(count, maxColumns)
      .slice(1)
      .map(
        (columns) => css`
          @media (min-width: ${breakpointFor(columns, minWidth)}px) {
            grid-template-columns: repeat(${columns}, minmax(0, 1fr));
          }
        `,
      )}
  `;
