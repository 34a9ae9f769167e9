import { Link } from '@app/router';
import { buttonStyles, CheckIcon, Container } from '@app/ui';
import { css, type Theme } from '@emotion/react';

const POINTS = [
  'Write in Markdown with a live preview',
  'Save drafts and publish when you are ready',
  'Choose who reads it: everyone or members only',
  'Follow your views in your own analytics',
];

/**
 * /create-post for a guest: one compact panel (what writing offers, and the way in) instead of a
 * page-wide dashed box, so a desktop screen is not mostly empty.
 */
export function GuestWritePrompt({ heading }: { heading: string }) {
  return (
    <Container
      css={css`
        /* The shell keeps main a screen tall; on a desktop the panel sits in the middle of it, not at the top. */
        @media (min-width: 760px) {
          min-height: min(72vh, 720px);
          display: grid;
          align-content: center;
        }
      `}
    >
      <section
        aria-labelledby="write-prompt-title"
        css={(t: Theme) => css`
          max-width: 880px;
          margin: ${t.space(8)} auto;
          padding: ${t.space(8)};
          border: 1px solid ${t.color.border};
          border-radius: ${t.radius.md};
          background: ${t.color.surface};
          box-shadow: ${t.shadow};
          display: grid;
          gap: ${t.space(6)} ${t.space(10)};
          grid-template-columns: minmax(0, 1fr);
          @media (min-width: 760px) {
            grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr);
            align-items: center;
          }
          @media (max-width: 480px) {
            margin: ${t.space(4)} 0;
            padding: ${t.space(5)};
          }
        `}
      >
        <div css={(t: Theme) => css`display: grid; gap: ${t.space(3)}; h1, p { margin: 0; }`}>
          <h1 id="write-prompt-title">{heading}</h1>
          <p>Please log in to write research.</p>
          <p css={(t: Theme) => css`color: ${t.color.textMuted};`}>
            Membership is free. Share your risk and opportunity research with other business leaders.
          </p>
          <div
            css={(t: Theme) =>
              css`display: flex; flex-wrap: wrap; gap: ${t.space(3)}; margin-top: ${t.space(2)};`
            }
          >
            <Link to="/login" css={buttonStyles('primary')}>
              Log In
            </Link>
            <Link to="/register" css={buttonStyles('secondary')}>
              Sign Up Free
            </Link>
          </div>
        </div>
        <ul
          aria-label="What members can do"
          css={(t: Theme) => css`
            list-style: none;
            margin: 0;
            padding: ${t.space(5)};
            border-radius: ${t.radius.sm};
            background: ${t.color.surfaceAlt};
            display: grid;
            gap: ${t.space(3)};
            li { display: flex; gap: ${t.space(2)}; align-items: flex-start; }
          `}
        >
          {POINTS.map((point) => (
            <li key={point}>
              <CheckIcon size={20} css={(t: Theme) => css`flex: none; color: ${t.color.success};`} />
              <span>{point}</span>
            </li>
          ))}
        </ul>
      </section>
    </Container>
  );
}
