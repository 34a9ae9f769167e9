import { errorMessage } from '@app/api-client';
import { MESSAGES, type RecoveryCodes, type TwoFactorSetup } from '@app/contracts';
import { Alert, Button, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useState } from 'react';
import { confirmSetup } from '../api/two-factor';
import { TWO_FACTOR_TEXTS as T } from '../texts';
import { formCss } from './password-code-form';

const secretCss = (t: Theme) => css`
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  font-size: ${t.font.small};
  word-break: break-all;
  background: ${t.color.surfaceAlt};
  padding: ${t.space(1)} ${t.space(2)};
  border-radius: ${t.radius.sm};
`;

/**
 * The new secret as a QR code and as text, and the code that confirms the app has it: only then is it on
 * (the server keeps it pending until this code). A wrong code keeps what was typed.
 */
export function AuthenticatorSetup({
  setup,
  onConfirmed,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onConfirmed: (codes: RecoveryCodes) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (code.trim() === '') {
      setError(MESSAGES.twoFactor.codeMissing);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      onConfirmed(await confirmSetup(code.trim()));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <div css={(t: Theme) => css`display: flex; flex-direction: column; gap: ${t.space(3)};`}>
      <p>{T.scan}</p>
      <img src={setup.qrCode} alt={T.qrAlt} width={200} height={200} css={css`align-self: center;`} />
      <p>
        {T.secretLabel} <code css={secretCss}>{setup.secret}</code>
      </p>
      <form noValidate onSubmit={submit} css={formCss} aria-busy={busy}>
        <TextField
          label={T.newCode}
          name="code"
          hint={T.newCodeHint}
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          value={code}
          disabled={busy}
          error={error ?? undefined}
          onChange={(e) => setCode(e.target.value)}
        />
        <div className="buttons">
          <Button type="submit" disabled={busy}>
            {busy ? T.working : T.turnOn}
          </Button>
          <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
            {T.cancel}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The ten recovery codes, shown once with the message that says so; gone from the page when saved. */
export function RecoveryCodeList({ codes, onDone }: { codes: RecoveryCodes; onDone: () => void }) {
  return (
    <div css={(t: Theme) => css`display: flex; flex-direction: column; gap: ${t.space(3)};`}>
      <Alert tone="success">{codes.message}</Alert>
      <h3 css={css`margin: 0;`}>{T.recoveryTitle}</h3>
      <p>{T.recoveryHint}</p>
      <ol
        aria-label={T.recoveryTitle}
        css={(t: Theme) => css`${secretCss(t)}; margin: 0; padding-left: 2.5em;`}
      >
        {codes.recoveryCodes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <Button onClick={onDone}>{T.saved}</Button>
    </div>
  );
}
