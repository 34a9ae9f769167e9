import { Link } from '@app/router';
import { buttonStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import type { ReactNode } from 'react';

export const emptyCss = (t: Theme) => css`
  text-align: center;
  padding: ${t.space(10)} ${t.space(4)};
  border: 1px dashed ${t.color.border};
  border-radius: ${t.radius.md};
  background: ${t.color.surface};
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  align-items: center;
  h2 { margin: 0; font-size: ${t.font.h3}; }
  p { margin: 0; color: ${t.color.textMuted}; }
`;

export const actionsCss = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(3)};
  justify-content: center;
`;

export function EmptyState({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <div css={emptyCss}>
      <h2>{title}</h2>
      <p>{text}</p>
      {children && <div css={actionsCss}>{children}</div>}
    </div>
  );
}

/** SPEC §2: the empty state offers Sign Up Free and Log In to guests. */
export function GuestEmptyState() {
  return (
    <EmptyState
      title="No public research yet"
      text="Members see more research. Join free to read member research and publish your own."
    >
      <Link to="/register" css={buttonStyles('primary')}>
        Sign Up Free
      </Link>
      <Link to="/login" css={buttonStyles('secondary')}>
        Log In
      </Link>
    </EmptyState>
  );
}
