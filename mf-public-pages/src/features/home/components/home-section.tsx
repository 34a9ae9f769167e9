import { renderWhenNear } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import type { ReactNode } from 'react';

/** The h2 and one-line introduction every Home section starts with. */
function SectionHeading({ id, title, intro }: { id: string; title: string; intro?: ReactNode }) {
  return (
    <header css={(t: Theme) => css`margin-bottom: ${t.space(5)};`}>
      <h2 id={id} css={(t: Theme) => css`margin: 0; font-size: ${t.font.h2};`}>
        {title}
      </h2>
      {intro && (
        <p css={(t: Theme) => css`margin: ${t.space(2)} 0 0; color: ${t.color.textMuted}; max-width: 70ch;`}>
          {intro}
        </p>
      )}
    </header>
  );
}

// Below the hero, a phone shows none of Home's sections on arrival: each waits until the reader scrolls near
// it (900px: about an average section's height on a phone).
const sectionCss = (t: Theme) => css`
  padding: ${t.space(10)} 0 0;
  ${renderWhenNear('900px')};
`;

/**
 * A section of Home: a landmark named by its h2, with the introduction under it. `busy` while its content
 * loads (aria-busy), so a screen reader waits for the cards instead of reading skeletons.
 */
export function HomeSection({
  id,
  title,
  intro,
  busy,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  busy?: boolean;
  children: ReactNode;
}) {
  const titleId = `home-${id}-title`;
  return (
    <section aria-labelledby={titleId} aria-busy={busy} css={sectionCss}>
      <SectionHeading id={titleId} title={title} intro={intro} />
      {children}
    </section>
  );
}

/**
 * The outline of a card while a section loads, as tall as the card that replaces it (so nothing below moves).
 * The skeleton lines inside sketch that card's own layout.
 */
export function CardOutline({ height, children }: { height: string; children: ReactNode }) {
  return (
    <div
      css={(t: Theme) => css`
        height: ${height};
        padding: ${t.space(5)};
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.md};
        display: grid;
        align-content: start;
        gap: ${t.space(3)};
      `}
    >
      {children}
    </div>
  );
}
