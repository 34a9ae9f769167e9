import { MESSAGES } from '@app/contracts';
import { Link, Navigate, useLocation, useNavigate } from '@app/router';
import { LOGIN_NOTICE_TEXT, readLoginNotice, useSession } from '@app/session';
import { Alert, Button, inlineLinkStyles, TextField, usePageTitle } from '@app/ui';
import { css } from '@emotion/react';
import { type FormEvent, useRef, useState } from 'react';
import { FormCard, footerText, mutedText } from '../../../components/layout';
import { focusFirstError, useFocusAfterRender } from '../../../lib/focus';
import { TEXTS } from '../../../lib/texts';
import { loginErrorMessage, needsCode, requestLogin } from '../api/login';

const T = TEXTS.login;

/** SPEC §2 Login, §4 idle -> authenticating -> success | error, §5 both fields required, §8 messages. */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  usePageTitle(T.title);
  // Why the shell sent the visitor here, if it did (@app/session's login redirect).
  const noticeKind = readLoginNotice(location.state);
  const notice = noticeKind && LOGIN_NOTICE_TEXT[noticeKind];
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Issue 46: shown once the API says the account has a second factor; email and password stay as typed.
  const [codeStep, setCodeStep] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The message is the API asking for the code (not a failure): shown as information.
  const [asked, setAsked] = useState(false);
  const [missing, setMissing] = useState<{ email: boolean; password: boolean }>({
    email: false,
    password: false,
  });
  const [busy, setBusy] = useState(false);
  // Set once this screen has logged the user in, so the "already logged in" redirect does not race
  // the navigation to /dashboard.
  const loggedInHere = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Fields are disabled while busy, so focus moves only after the render that enables them again.
  const focusNext = useFocusAfterRender((name: string) => focusFirstError(formRef.current, [name]));

  if (session.isLoggedIn && !loggedInHere.current) return <Navigate to="/research-center" replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const trimmedEmail = email.trim();
    const emailMissing = trimmedEmail === '';
    const passwordMissing = password === '';
    if (emailMissing || passwordMissing) {
      setMissing({ email: emailMissing, password: passwordMissing });
      setError(MESSAGES.login.required);
      setAsked(false);
      focusFirstError(formRef.current, [emailMissing ? 'email' : 'password']);
      return;
    }
    if (codeStep && code.trim() === '') {
      setError(MESSAGES.twoFactor.codeMissing);
      setAsked(false);
      focusFirstError(formRef.current, ['code']);
      return;
    }
    setMissing({ email: false, password: false });
    setError(null);
    setAsked(false);
    setBusy(true);
    try {
      const token = await requestLogin(trimmedEmail, password, codeStep ? code.trim() : undefined);
      loggedInHere.current = true;
      session.login(token);
      navigate('/dashboard', { replace: true });
    } catch (failure) {
      setError(loginErrorMessage(failure));
      setBusy(false);
      if (needsCode(failure)) {
        setAsked(!codeStep);
        setCodeStep(true);
        focusNext('code');
      } else {
        focusNext('password');
      }
    }
  };

  const errorId = 'login-error';
  return (
    <FormCard maxWidth="440px">
      <h1>{T.title}</h1>
      <p css={mutedText}>{T.intro}</p>
      {notice && <Alert tone="info">{notice}</Alert>}
      {error && (
        <Alert tone={asked ? 'info' : 'error'} id={errorId}>
          {error}
        </Alert>
      )}
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={T.title}>
        <TextField
          label={T.email}
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          disabled={busy}
          aria-invalid={missing.email || undefined}
          aria-describedby={missing.email ? errorId : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            setMissing((m) => ({ ...m, email: false }));
          }}
        />
        <TextField
          label={T.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          disabled={busy}
          aria-invalid={missing.password || undefined}
          aria-describedby={missing.password ? errorId : undefined}
          onChange={(e) => {
            setPassword(e.target.value);
            setMissing((m) => ({ ...m, password: false }));
          }}
        />
        {codeStep && (
          <TextField
            label={T.code}
            name="code"
            hint={T.codeHint}
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            required
            value={code}
            disabled={busy}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
        <Button type="submit" disabled={busy} css={css`width: 100%;`}>
          {busy ? T.busy : T.submit}
        </Button>
      </form>
      <p css={footerText}>
        <Link to="/forgot-password" css={inlineLinkStyles}>
          {T.forgotLink}
        </Link>
      </p>
      <p css={footerText}>
        {T.noAccount}{' '}
        <Link to="/register" css={inlineLinkStyles}>
          {T.registerLink}
        </Link>
      </p>
    </FormCard>
  );
}
