import { Link } from '@app/router';
import { ArrowRightIcon, buttonStyles, CheckIcon, inlineLinkStyles, MailIcon } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useEffect, useId, useRef } from 'react';
import { TEXTS } from '../../../lib/texts';

const T = TEXTS.register;

const headingCss = (t: Theme) => css`
  display: flex;
  align-items: center;
  gap: ${t.space(3)};
  .mark {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    flex-shrink: 0;
    width: 40px;
    height: 40px;
    border-radius: 50%;
    background: ${t.color.successBg};
    color: ${t.color.success};
  }
`;

const messageCss = (t: Theme) => css`
  margin: ${t.space(4)} 0;
  padding: ${t.space(3)} ${t.space(4)};
  border-left: 4px solid ${t.color.success};
  border-radius: ${t.radius.sm};
  background: ${t.color.successBg};
  color: ${t.color.success};
  font-weight: 600;
`;

const nextCss = (t: Theme) => css`
  h2 { margin: 0 0 ${t.space(2)}; font-size: ${t.font.h3}; }
  p { margin: 0 0 ${t.space(3)}; }
`;

const actionsCss = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(3)};
  margin-top: ${t.space(5)};
  a { flex: 1 1 200px; }
`;

interface Props {
  /** The server's success message (SPEC §4: "server message shown"). */
  message: string;
  requiresActivation: boolean;
}

/**
 * Replaces the registration form once the account exists, so nobody fills in an empty form again: the
 * server's message, what happens next (SPEC §4: activation by an administrator, or the 3 s redirect to
 * /login the page schedules), and ways on. Focus moves to the heading, which screen readers announce with
 * the message as its description.
 */
export function RegistrationDone({ message, requiresActivation }: Props) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const messageId = useId();

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <section aria-labelledby={headingId}>
      <h1 id={headingId} ref={headingRef} tabIndex={-1} aria-describedby={messageId} css={headingCss}>
        <span className="mark">
          <CheckIcon size={22} strokeWidth={2.5} />
        </span>
        {T.doneTitle}
      </h1>
      <p id={messageId} css={messageCss}>
        {message}
      </p>
      <div css={nextCss}>
        <h2>{T.nextTitle}</h2>
        {requiresActivation ? (
          <>
            <p>{T.activationRequired}</p>
            <p>{T.afterActivation}</p>
          </>
        ) : (
          <p>
            {T.redirecting}{' '}
            <Link to="/login" css={inlineLinkStyles}>
              {T.logInNow}
            </Link>
          </p>
        )}
      </div>
      <div css={actionsCss}>
        <Link to="/research-center" css={buttonStyles('primary')}>
          {T.browseResearch}
          <ArrowRightIcon size={18} />
        </Link>
        <Link to="/contact" css={buttonStyles('secondary')}>
          <MailIcon size={18} />
          {T.contact}
        </Link>
      </div>
    </section>
  );
}
