import { Link } from '@app/router';
import { buttonStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { bandSurface } from '../../../lib/styles';

/** SPEC §2: the Research Center promo with Browse Research and Join for Free. */
export function ResearchPromo() {
  return (
    <section
      aria-labelledby="home-promo-title"
      css={(t: Theme) => css`
        margin: ${t.space(12)} 0 ${t.space(4)};
        padding: ${t.space(8)};
        ${bandSurface(t)};
        display: flex;
        flex-wrap: wrap;
        gap: ${t.space(6)};
        align-items: center;
        justify-content: space-between;
      `}
    >
      <div css={css`max-width: 60ch;`}>
        <h2 id="home-promo-title" css={(t: Theme) => css`margin: 0; font-size: ${t.font.h2};`}>
          Research Center
        </h2>
        <p css={(t: Theme) => css`margin: ${t.space(2)} 0 0; color: ${t.color.textMuted};`}>
          Threat intelligence, market analyses and case studies in one place. Members read more research, keep
          their own reports and follow the topics that matter to their business. Joining is free.
        </p>
      </div>
      <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)};`}>
        <Link to="/research-center" css={buttonStyles('primary')}>
          Browse Research
        </Link>
        <Link to="/register" css={buttonStyles('secondary')}>
          Join for Free
        </Link>
      </div>
    </section>
  );
}
