import { MESSAGES, PasswordSchema } from '@app/contracts';
import { Link, type Location, useLocation, useNavigate } from '@app/router';
import { loginRedirect } from '@app/session';
import { Alert, Button, inlineLinkStyles, TextField, usePageTitle } from '@app/ui';
import { css } from '@emotion/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { FormCard, footerText, mutedText } from '../../../components/layout';
import { focusFirstError } from '../../../lib/focus';
import { TEXTS } from '../../../lib/texts';
import { resetFailure, resetPassword } from '../api/password-reset';

const T = TEXTS.resetPassword;
const R = MESSAGES.register;

type Errors = { password?: string; confirm?: string };

/** The token a reset link carries: in its fragment (`#token=…`, issue 46), or its query (older mails). */
export function tokenOf(where: Pick<Location, 'hash' | 'search'>): string {
  const fromHash = new URLSearchParams(where.hash.replace(/^#/, '')).get('token');
  return fromHash || new URLSearchParams(where.search).get('token') || '';
}

/**
 * The address bar without the token, at once: history.replaceState, so neither the bar, the history, a
 * bookmark, a screenshot nor the Referer of what the page asks for next holds it (issue 46).
 */
function scrubAddressBar(): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  if (!tokenOf(url)) return;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}`);
}

/**
 * The link's token, kept in this page's memory only. Taken on the first render, before any effect of the
 * page runs, and taken out of the address bar there and then; the router is told once it listens (an effect:
 * on a first mount it starts listening in its own layout effect, after its children's), so its location
 * holds no token either.
 */
function useResetToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => {
    const found = tokenOf(location);
    if (found) scrubAddressBar();
    return found;
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival; the page's own navigation follows
  useEffect(() => {
    if (tokenOf(location)) {
      const search = new URLSearchParams(location.search);
      search.delete('token');
      const rest = search.toString();
      navigate(
        { pathname: location.pathname, search: rest ? `?${rest}` : '', hash: '' },
        { replace: true, state: location.state },
      );
    }
  }, []);
  return token;
}

/**
 * Issue 34: the page the reset mail links to (`/reset-password#token=…`; `?token=…` from older mails). The
 * new password twice, checked by registration's rule; errors keep what was typed. Success sends the member
 * to Login with a notice, since every session of the account has ended.
 */
export function ResetPasswordPage() {
  const token = useResetToken();
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
