import { errorMessage, writeToken } from '@app/api-client';
import { ChangePasswordSchema, MESSAGES, type Preferences } from '@app/contracts';
import { useNavigate } from '@app/router';
import { Alert, Button, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { startTransition, useState } from 'react';
import * as v from 'valibot';
import { TEXTS } from '../../../lib/texts';
import { changePassword, deleteAccount, savePreferences } from '../api/profile';

const T = TEXTS.profile;
const P = MESSAGES.profile;

type Outcome = { tone: 'success' | 'error'; text: string } | null;
type Busy = 'password' | 'preferences' | 'delete' | null;

const actionsCss = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  h2 { margin: 0; font-size: ${t.font.h3}; }
`;

const switchCss = (on: boolean) => (t: Theme) =>
  css`
  display: inline-flex;
  align-items: center;
  justify-content: space-between;
  gap: ${t.space(3)};
  width: 100%;
  min-height: 40px;
  padding: 0 ${t.space(4)};
  border-radius: ${t.radius.sm};
  border: 1px solid ${on ? t.color.primary : t.color.border};
  background: ${t.color.surface};
  color: ${t.color.text};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &:disabled { opacity: 0.6; cursor: not-allowed; }
  .track {
    position: relative;
    width: 40px;
    height: 22px;
    border-radius: ${t.radius.pill};
    background: ${on ? t.color.primary : t.color.border};
    flex-shrink: 0;
  }
  .track::after {
    content: '';
    position: absolute;
    top: 3px;
    left: ${on ? '21px' : '3px'};
    width: 16px;
    height: 16px;
    border-radius: 50%;
    background: ${t.color.surface};
    transition: left 0.15s;
  }
`;

interface Props {
  preferences: Preferences | null;
  onPreferences: (preferences: Preferences) => void;
  /** Returns true when the error was a 401 and the screen is leaving for /login. */
  onUnauthorized: (error: unknown) => boolean;
  /** Called before the screen leaves after deleting the account. */
  onLeaving: () => void;
}

/**
 * SPEC §2 Quick Actions. Change Password asks for the new password and then the current one, both through
 * browser prompts (docs/decisions/0005-change-password-current-password.md).
 */
export function QuickActions({ preferences, onPreferences, onUnauthorized, onLeaving }: Props) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<Busy>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const fail = (error: unknown, fallback: string) => {
    if (onUnauthorized(error)) return;
    setBusy(null);
    setOutcome({ tone: 'error', text: errorMessage(error, fallback) });
  };

  const onChangePassword = async () => {
    const newPassword = window.prompt(P.passwordPrompt);
    if (newPassword === null) return;
    if (!v.is(ChangePasswordSchema.entries.newPassword, newPassword)) {
      setOutcome({ tone: 'error', text: T.newPasswordTooShort });
      return;
    }
    const currentPassword = window.prompt(T.currentPasswordPrompt);
    if (currentPassword === null) return;
    if (currentPassword === '') {
      setOutcome({ tone: 'error', text: T.currentPasswordRequired });
      return;
    }
    setOutcome(null);
    setBusy('password');
    try {
      await changePassword({ currentPassword, newPassword });
      setBusy(null);
      setOutcome({ tone: 'success', text: P.passwordUpdated });
    } catch (error) {
      fail(error, P.passwordFailed);
    }
  };

  const onToggleOptIn = async () => {
    if (!preferences) return;
    setOutcome(null);
    setBusy('preferences');
    try {
      const saved = await savePreferences({ ...preferences, emailOptIn: !preferences.emailOptIn });
      onPreferences(saved);
      setBusy(null);
      setOutcome({ tone: 'success', text: P.preferencesSaved });
    } catch (error) {
      fail(error, P.preferencesFailed);
    }
  };

  const onDelete = async () => {
    if (!window.confirm(P.deleteConfirm)) return;
    setOutcome(null);
    setBusy('delete');
    try {
      await deleteAccount();
      // The server already ended every session of the deleted account: forget the token without a logout call.
      onLeaving();
      // One transition for both: the router's navigation is a transition, so a plain token update would
      // render first at /profile and the shell's guard would send the user to /login instead.
      startTransition(() => {
        writeToken(null);
        navigate('/register', { replace: true });
      });
    } catch (error) {
      fail(error, P.deleteFailed);
    }
  };

  const optIn = preferences?.emailOptIn ?? false;
  return (
    <Card aria-labelledby="quick-actions-title">
      <div css={actionsCss}>
        <h2 id="quick-actions-title">{T.quickActions}</h2>
        <Button variant="secondary" onClick={onChangePassword} disabled={busy !== null}>
          {T.changePassword}
        </Button>
        <button
          type="button"
          role="switch"
          aria-checked={optIn}
          aria-describedby="email-opt-in-hint"
          disabled={busy !== null || preferences === null}
          onClick={onToggleOptIn}
          css={switchCss(optIn)}
        >
          <span>{T.emailOptIn}</span>
          <span css={css`display: inline-flex; align-items: center; gap: 8px;`}>
            <span aria-hidden="true">{optIn ? T.emailOptInOn : T.emailOptInOff}</span>
            <span className="track" aria-hidden="true" />
          </span>
        </button>
        <p
          id="email-opt-in-hint"
          css={(t: Theme) => css`margin: 0; font-size: ${t.font.small}; color: ${t.color.textMuted};`}
        >
          {preferences ? T.emailOptInHint : T.preferencesUnavailable}
        </p>
        <Button variant="danger" onClick={onDelete} disabled={busy !== null}>
          {T.deleteAccount}
        </Button>
        {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      </div>
    </Card>
  );
}
