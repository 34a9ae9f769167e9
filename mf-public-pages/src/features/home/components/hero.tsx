import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { useShellActions } from '@app/shell-actions';
import { Button, buttonStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { HeroVisual } from './hero-visual';

/** From here the hero has room for two columns: the text keeps about 55 characters a line. */
const HERO_VISUAL_MIN_WIDTH = 960;

export const HERO_TITLE = 'See the risks coming. Seize the opportunities first.';

export function Hero() {
  const { openSurvey } = useShellActions();
  return (
    <section
      aria-labelledby="home-hero-title"
      css={(t: Theme) => css`
        padding: ${t.space(12)} 0 ${t.space(10)};
        border-bottom: 1px solid ${t.color.border};
        display: grid;
        gap: ${t.space(10)};
        align-items: center;
        @media (min-width: ${HERO_VISUAL_MIN_WIDTH}px) {
          grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr);
        }
      `}
    >
      <div>
        <p
          css={(t: Theme) => css`
          margin: 0 0 ${t.space(3)};
          color: ${t.color.accent};
          font-weight: 700;
          letter-spacing: 0.06em;
          text-transform: uppercase;
          font-size: ${t.font.small};
        `}
        >
          {MESSAGES.app.companyName}
        </p>
        <h1
          id="home-hero-title"
          css={(t: Theme) => css`
          margin: 0;
          font-size: clamp(2rem, 4.5vw, 3rem);
          line-height: 1.15;
          max-width: 22ch;
          color: ${t.color.text};
        `}
        >
          {HERO_TITLE}
        </h1>
        <p
          css={(t: Theme) => css`
          margin: ${t.space(5)} 0 ${t.space(8)};
          max-width: 60ch;
          font-size: 1.15rem;
          color: ${t.color.textMuted};
        `}
        >
          Research, dashboards and a personal market assessment that help leaders of small and mid-sized
          businesses spot threats early, find room to grow and act with confidence.
        </p>
        <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)};`}>
          <Button onClick={openSurvey}>Start Free Assessment</Button>
          <Link to="/research-center" css={buttonStyles('secondary')}>
            Explore Research
          </Link>
        </div>
      </div>
      {/* Desktop only: on a phone the words and the buttons matter more than a picture. */}
      <div
        css={css`
          display: none;
          aspect-ratio: 480 / 340;
          @media (min-width: ${HERO_VISUAL_MIN_WIDTH}px) { display: block; }
        `}
      >
        <HeroVisual />
      </div>
    </section>
  );
}
