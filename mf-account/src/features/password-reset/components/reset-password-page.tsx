import { MESSAGES, PasswordSchema } from '@app/contracts';
import { Link, useNavigate } from '@app/router';
import { loginRedirect } from '@app/session';
import { Alert, Button, inlineLinkStyles, TextField, usePageTitle } from '@app/ui';
import { css } from '@emotion/react';
import { type FormEvent, useRef, useState } from 'react';
import * as v from 'valibot';
import { FormCard, footerText, mutedText } from '../../../components/layout';
import { focusFirstError } from '../../../lib/focus';
import { useLinkToken } from '../../../lib/link-token';
import { TEXTS } from '../../../lib/texts';
import { resetFailure, resetPassword } from '../api/password-reset';

const T = TEXTS.resetPassword;
const R = MESSAGES.register;

type Errors = { password?: string; confirm?: string };

/**
 * Issue 34: the page the reset mail links to (`/reset-password#token=…`; `?token=…` from older mails). The
 * new password twice, checked by registration's rule; errors keep what was typed. Success sends the member
 * to Login with a notice, since every session of the account has ended.
 */
export function ResetPasswordPage() {
  // The link's token, out of the address bar at once (issue 46: lib/link-token.ts).
  const token = useLinkToken();
  usePageTitle(T.title);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(token ? null : MESSAGES.passwordReset.missingToken);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors = {};
    const checked = v.safeParse(PasswordSchema, password);
    if (!checked.success) found.password = checked.issues[0]?.message;
    if (confirm === '') found.confirm = R.confirmRequired;
    else if (confirm !== password) found.confirm = R.confirmMismatch;
    setErrors(found);
    if (found.password || found.confirm) {
      focusFirstError(formRef.current, [found.password ? 'password' : 'confirm']);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await resetPassword(token, password);
      navigate('/login', { replace: true, state: loginRedirect('password-reset') });
    } catch (failure) {
      const f = resetFailure(failure);
      if (f.field === 'password') setErrors({ password: f.message });
      else setError(f.message);
      setBusy(false);
    }
  };

  return (
    <FormCard maxWidth="440px">
      <h1>{T.title}</h1>
      <p css={mutedText}>{T.intro}</p>
      {error && (
        <Alert tone="error">
          {error}{' '}
          <Link to="/forgot-password" css={inlineLinkStyles}>
            {T.requestNew}
          </Link>
        </Alert>
      )}
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={T.title}>
        <TextField
          label={T.password}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          disabled={busy || !token}
          error={errors.password}
          onChange={(e) => {
            setPassword(e.target.value);
            setErrors((x) => ({ ...x, password: undefined }));
          }}
        />
        <TextField
          label={T.confirm}
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          disabled={busy || !token}
          error={errors.confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            setErrors((x) => ({ ...x, confirm: undefined }));
          }}
        />
        <Button type="submit" disabled={busy || !token} css={css`width: 100%;`}>
          {busy ? T.busy : T.submit}
        </Button>
      </form>
      <p css={footerText}>
        <Link to="/login" css={inlineLinkStyles}>
          {TEXTS.forgotPassword.backToLogin}
        </Link>
      </p>
    </FormCard>
  );
}
