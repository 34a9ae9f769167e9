import { errorMessage } from '@app/api-client';
import { formatDate, MESSAGES } from '@app/contracts';
import { useServerState } from '@app/server-state';
import { Alert, Badge, Button, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useId, useState } from 'react';
import { endOtherSessions, endSession, fetchSessions } from '../api/profile';
import { ActionFeedback, type Feedback } from './action-feedback';

const S = MESSAGES.sessions;

const listCss = (t: Theme) => css`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: ${t.space(3)};
  }
  .device { font-weight: 600; }
  .seen { color: ${t.color.textMuted}; font-size: ${t.font.small}; }
`;

/**
 * Issue 46: where the member is signed in (device, last use), with "Sign out" per session and "Sign out
 * everywhere else", so a session on a lost or shared device can be ended from here.
 */
export function SessionsCard() {
  const titleId = useId();
  const feedbackId = useId();
  // The apps' one way to load server state (decision 0019); after an action the list is asked for again.
  const loaded = useServerState(fetchSessions, []);
  const sessions = loaded.data;
  const loadError = loaded.status === 'error' ? errorMessage(loaded.error, S.loadFailed) : null;
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const act = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setFeedback(null);
    try {
      await action();
      setFeedback({ tone: 'success', text: done });
    } catch (error) {
      setFeedback({ tone: 'error', text: errorMessage(error, S.actionFailed) });
    } finally {
      setBusy(false);
      loaded.reload();
    }
  };

  const others = sessions?.filter((s) => !s.current) ?? [];
  return (
    <Card aria-labelledby={titleId}>
      <h2 id={titleId} css={css`margin: 0 0 8px; font-size: 1.25rem;`}>
        {S.title}
      </h2>
      <p css={css`margin: 0 0 12px; font-size: 0.875rem;`}>{S.intro}</p>
      {loadError && <Alert tone="error">{loadError}</Alert>}
      {sessions && (
        <ul css={listCss}>
          {sessions.map((s) => (
            <li key={s.id}>
              <div>
                <div className="device">
                  {s.device || S.unknownDevice} {s.current && <Badge tone="success">{S.current}</Badge>}
                </div>
                <div className="seen">
                  {S.lastSeen}: {formatDate(s.last_seen_at)}
                </div>
              </div>
              {!s.current && (
                <Button
                  variant="secondary"
                  disabled={busy}
                  aria-describedby={feedback ? feedbackId : undefined}
                  aria-label={`${S.signOut}: ${s.device || S.unknownDevice}`}
                  onClick={() => act(() => endSession(s.id), S.ended)}
                >
                  {S.signOut}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <Button
          variant="secondary"
          disabled={busy}
          css={css`margin-top: 12px;`}
          onClick={() => act(endOtherSessions, S.endedOthers)}
        >
          {S.signOutOthers}
        </Button>
      )}
      <div css={css`margin-top: 8px;`}>
        <ActionFeedback id={feedbackId} feedback={feedback} />
      </div>
    </Card>
  );
}
