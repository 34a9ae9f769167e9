import { api, errorMessage } from '@app/api-client';
import { API_PATHS, MESSAGES, StepUpResponseSchema } from '@app/contracts';
import { Button, Modal, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useState } from 'react';
import { TWO_FACTOR_TEXTS as T } from './two-factor-texts';

/**
 * The step-up dialog (issue 46): one code for this session, verified by the API; the refused action is
 * then sent again (step-up-host.tsx). A wrong code keeps what was typed and says why.
 */
export default function StepUpDialog({
  message,
  onDone,
}: {
  message: string;
  onDone: (verified: boolean) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (code.trim() === '') {
      setError(MESSAGES.twoFactor.codeMissing);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.post(API_PATHS.twoFactorVerify, { code: code.trim() }, StepUpResponseSchema);
      onDone(true);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Modal title={T.stepUpTitle} onClose={() => onDone(false)} width="440px">
      <p>{message}</p>
      <form noValidate onSubmit={onSubmit} aria-label={T.stepUpTitle}>
        <TextField
          label={T.codeLabel}
          name="code"
          hint={T.codeHint}
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          disabled={busy}
          error={error ?? undefined}
          onChange={(e) => setCode(e.target.value)}
        />
        <div css={(t: Theme) => css`display: flex; gap: ${t.space(3)}; justify-content: flex-end;`}>
          <Button type="button" variant="secondary" onClick={() => onDone(false)}>
            {T.cancel}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? T.confirming : T.confirm}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
