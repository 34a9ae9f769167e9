import { errorMessage } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { Alert, Button, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { focusFirstError } from '../../../lib/focus';
import { TWO_FACTOR_TEXTS as T } from '../texts';

const TF = MESSAGES.twoFactor;

export const formCss = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  .buttons { display: flex; gap: ${t.space(3)}; flex-wrap: wrap; }
`;

/**
 * The password, and with `withCode` a code of the current authenticator: what setting up, replacing or
 * turning off asks first (a stolen session alone must not change the second factor). A refusal keeps what
 * was typed and says why.
 */
export function PasswordCodeForm({
  withCode,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  withCode: boolean;
  submitLabel: string;
  onSubmit: (input: { password: string; code: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const missing = password === '' ? 'password' : withCode && code.trim() === '' ? 'code' : null;
    if (missing) {
      setError(missing === 'password' ? TF.passwordRequired : TF.codeMissing);
      focusFirstError(formRef.current, [missing]);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onSubmit({ password, code: code.trim() });
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} css={formCss} aria-busy={busy}>
      {error && (
        <Alert tone="error" id={errorId}>
          {error}
        </Alert>
      )}
      <TextField
        label={T.password}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        disabled={busy}
        onChange={(e) => setPassword(e.target.value)}
      />
      {withCode && (
        <TextField
          label={T.currentCode}
          name="code"
          autoComplete="one-time-code"
          required
          value={code}
          disabled={busy}
          onChange={(e) => setCode(e.target.value)}
        />
      )}
      <div className="buttons">
        <Button type="submit" disabled={busy}>
          {busy ? T.working : submitLabel}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
          {T.cancel}
        </Button>
      </div>
    </form>
  );
}
