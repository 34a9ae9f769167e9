import { errorMessage, writeToken } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { useNavigate } from '@app/router';
import { AlertIcon, Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { startTransition, useId, useState } from 'react';
import { TEXTS } from '../../../lib/texts';
import { deleteAccount } from '../api/profile';
import { ActionFeedback, type Feedback } from './action-feedback';

const T = TEXTS.profile;
const P = MESSAGES.profile;

const zoneCss = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  padding: ${t.space(5)};
  border-width: 1px;
  border-style: solid;
  border-color: ${t.color.danger};
  border-radius: ${t.radius.md};
  background: ${t.color.surface};
  color: ${t.color.text};
  h2 {
    display: flex;
    align-items: center;
    gap: ${t.space(2)};
    margin: 0;
    font-size: ${t.font.h3};
    color: ${t.color.danger};
  }
  p { margin: 0; color: ${t.color.textMuted}; font-size: ${t.font.small}; }
`;

/** Outlined, not filled: the action is available but should not be the loudest thing on the page. */
const outlinedDanger = (t: Theme) => css`
  background: transparent;
  color: ${t.color.danger};
  border-color: ${t.color.danger};
  &:hover:not(:disabled) { background: ${t.color.dangerBg}; border-color: ${t.color.danger}; }
`;

/** SPEC §2 Delete Account, set apart from the everyday actions with what it removes spelled out. */
export function DangerZone() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const titleId = useId();
  const textId = useId();
  const feedbackId = useId();

  const onDelete = async () => {
    if (!window.confirm(P.deleteConfirm)) return;
    setFeedback(null);
    setBusy(true);
    try {
      await deleteAccount();
      // The server already ended every session of the deleted account: forget the token without a logout call.
      // One transition for both: the router's navigation is a transition, so a plain token update would
      // render first at /profile and the shell's guard would send the user to /login instead.
      startTransition(() => {
        writeToken(null);
        navigate('/register', { replace: true });
      });
    } catch (error) {
      setBusy(false);
      setFeedback({ tone: 'error', text: errorMessage(error, P.deleteFailed) });
    }
  };

  return (
    <section aria-labelledby={titleId} css={zoneCss}>
      <h2 id={titleId}>
        <AlertIcon size={20} />
        {T.dangerZone}
      </h2>
      <p id={textId}>{T.dangerZoneText}</p>
      <Button
        variant="secondary"
        css={outlinedDanger}
        onClick={onDelete}
        disabled={busy}
        aria-describedby={[textId, feedback ? feedbackId : ''].filter(Boolean).join(' ')}
      >
        {T.deleteAccount}
      </Button>
      <ActionFeedback id={feedbackId} feedback={feedback} />
    </section>
  );
}
