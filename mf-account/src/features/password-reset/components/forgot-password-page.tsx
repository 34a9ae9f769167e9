import { errorMessage } from '@app/api-client';
import { EmailSchema, MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { Alert, Button, inlineLinkStyles, TextField, usePageTitle } from '@app/ui';
import { css } from '@emotion/react';
import { type FormEvent, useRef, useState } from 'react';
import * as v from 'valibot';
import { FormCard, footerText, mutedText } from '../../../components/layout';
import { focusFirstError } from '../../../lib/focus';
import { TEXTS } from '../../../lib/texts';
import { requestResetLink } from '../api/password-reset';

const T = TEXTS.forgotPassword;

/**
 * Issue 34: asks for a reset link. The confirmation is neutral (the API's text): it never says whether the
 * address has an account. What was typed stays after an error.
 */
export function ForgotPasswordPage() {
  usePageTitle(T.title);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = v.safeParse(EmailSchema, email);
    if (!checked.success) {
      setFieldError(email.trim() === '' ? T.emailRequired : (checked.issues[0]?.message ?? T.emailRequired));
      focusFirstError(formRef.current, ['email']);
      return;
    }
    setFieldError(null);
    setError(null);
    setBusy(true);
    try {
      await requestResetLink(checked.output);
      setSent(true);
    } catch (failure) {
      setError(errorMessage(failure, MESSAGES.passwordReset.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard maxWidth="440px">
      <h1>{T.title}</h1>
      {sent ? (
        <Alert tone="success">{MESSAGES.passwordReset.sent}</Alert>
      ) : (
        <>
          <p css={mutedText}>{T.intro}</p>
          {error && <Alert tone="error">{error}</Alert>}
          <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={T.title}>
            <TextField
              label={T.email}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              disabled={busy}
              error={fieldError ?? undefined}
              onChange={(e) => {
                setEmail(e.target.value);
                setFieldError(null);
              }}
            />
            <Button type="submit" disabled={busy} css={css`width: 100%;`}>
              {busy ? T.busy : T.submit}
            </Button>
          </form>
        </>
      )}
      <p css={footerText}>
        <Link to="/login" css={inlineLinkStyles}>
          {T.backToLogin}
        </Link>
      </p>
    </FormCard>
  );
}
