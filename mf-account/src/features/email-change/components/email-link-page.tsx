import { errorMessage, writeToken } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { Alert, Button, inlineLinkStyles, usePageTitle } from '@app/ui';
import { css } from '@emotion/react';
import { startTransition, useState } from 'react';
import { FormCard, footerText, mutedText } from '../../../components/layout';
import { useLinkToken } from '../../../lib/link-token';
import { confirmEmail, undoEmailChange } from '../api/email-change';

const E = MESSAGES.emailChange;

const MODES = {
  confirm: { title: E.confirmTitle, intro: E.confirmIntro, button: E.confirmButton, call: confirmEmail },
  undo: { title: E.undoTitle, intro: E.undoIntro, button: E.undoButton, call: undoEmailChange },
} as const;

/**
 * Issue 46: the pages an email change's links open (`/confirm-email#token=…` to the new address,
 * `/undo-email-change#token=…` to the old one). The link's token leaves the address bar at once; nothing
 * happens until the member presses the button, so a mail scanner that opens links changes nothing. Undo
 * ends every session, this browser's too.
 */
export function EmailLinkPage({ mode }: { mode: keyof typeof MODES }) {
  const m = MODES[mode];
  usePageTitle(m.title);
  const token = useLinkToken();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(token ? null : E.missingToken);

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await m.call(token);
      // After an undo this browser's session has ended with all the others.
      if (mode === 'undo') startTransition(() => writeToken(null));
      setDone(answer.message);
    } catch (failure) {
      setError(errorMessage(failure, E.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard maxWidth="480px">
      <h1>{m.title}</h1>
      {done ? (
        <Alert tone="success">{done}</Alert>
      ) : (
        <>
          <p css={mutedText}>{m.intro}</p>
          {error && <Alert tone="error">{error}</Alert>}
          <Button onClick={onClick} disabled={busy || !token} css={css`width: 100%;`}>
            {m.button}
          </Button>
        </>
      )}
      <p css={footerText}>
        <Link to={mode === 'undo' && done ? '/forgot-password' : '/profile'} css={inlineLinkStyles}>
          {mode === 'undo' && done ? 'Choose a new password' : 'Go to your profile'}
        </Link>
      </p>
    </FormCard>
  );
}

export const ConfirmEmailPage = () => <EmailLinkPage mode="confirm" />;
export const UndoEmailChangePage = () => <EmailLinkPage mode="undo" />;
