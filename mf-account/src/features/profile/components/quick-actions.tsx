import { errorMessage } from '@app/api-client';
import { ChangePasswordSchema, MESSAGES, type Preferences } from '@app/contracts';
import { Button, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { TEXTS } from '../../../lib/texts';
import { changePassword, savePreferences } from '../api/profile';
import { ActionFeedback, type Feedback } from './action-feedback';

const T = TEXTS.profile;
const P = MESSAGES.profile;

type Action = 'password' | 'preferences';
/** One result at a time, kept with the action it belongs to so it shows under that control. */
type Outcome = (Feedback & { action: Action }) | null;

const actionsCss = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  h2 { margin: 0; font-size: ${t.font.h3}; }
  .action { display: flex; flex-direction: column; gap: ${t.space(2)}; }
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
}

/**
 * SPEC §2 Quick Actions (Delete Account lives apart, in the danger zone). Change Password asks for the new
 * password and then the current one, both through browser prompts
 * (docs/decisions/0005-change-password-current-password.md).
 */
export function QuickActions({ preferences, onPreferences }: Props) {
  const [busy, setBusy] = useState<Action | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const passwordFeedbackId = useId();
  const optInFeedbackId = useId();
  const optInHintId = useId();

  // A 401 among these has also ended the session: the shell then leaves this page for /login (@app/session).
  const fail = (action: Action, error: unknown, fallback: string) => {
    setBusy(null);
    setOutcome({ action, tone: 'error', text: errorMessage(error, fallback) });
  };

  const onChangePassword = async () => {
    const newPassword = window.prompt(P.passwordPrompt);
    if (newPassword === null) return;
    if (!v.is(ChangePasswordSchema.entries.newPassword, newPassword)) {
      setOutcome({ action: 'password', tone: 'error', text: T.newPasswordTooShort });
      return;
    }
    const currentPassword = window.prompt(T.currentPasswordPrompt);
    if (currentPassword === null) return;
    if (currentPassword === '') {
      setOutcome({ action: 'password', tone: 'error', text: T.currentPasswordRequired });
      return;
    }
    setOutcome(null);
    setBusy('password');
    try {
      await changePassword({ currentPassword, newPassword });
      setBusy(null);
      setOutcome({ action: 'password', tone: 'success', text: P.passwordUpdated });
    } catch (error) {
      fail('password', error, P.passwordFailed);
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
      setOutcome({ action: 'preferences', tone: 'success', text: P.preferencesSaved });
    } catch (error) {
      fail('preferences', error, P.preferencesFailed);
    }
  };

  const feedbackOf = (action: Action) => (outcome?.action === action ? outcome : null);
  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;
  const optIn = preferences?.emailOptIn ?? false;
  return (
    <Card aria-labelledby="quick-actions-title">
      <div css={actionsCss}>
        <h2 id="quick-actions-title">{T.quickActions}</h2>
        <div className="action">
          <Button
            variant="secondary"
            onClick={onChangePassword}
            disabled={busy !== null}
            aria-describedby={describedBy(outcome?.action === 'password' && passwordFeedbackId)}
          >
            {T.changePassword}
          </Button>
          <ActionFeedback id={passwordFeedbackId} feedback={feedbackOf('password')} />
        </div>
        <div className="action">
          <button
            type="button"
            role="switch"
            aria-checked={optIn}
            aria-describedby={describedBy(optInHintId, outcome?.action === 'preferences' && optInFeedbackId)}
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
            id={optInHintId}
            css={(t: Theme) => css`margin: 0; font-size: ${t.font.small}; color: ${t.color.textMuted};`}
          >
            {preferences ? T.emailOptInHint : T.preferencesUnavailable}
          </p>
          <ActionFeedback id={optInFeedbackId} feedback={feedbackOf('preferences')} />
        </div>
      </div>
    </Card>
  );
}
