import { MESSAGES } from '@app/contracts';
import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';

const screen = (t: Theme) => css`
  min-height: 100vh;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: ${t.space(6)};
  background: ${t.color.bg};
  color: ${t.color.text};
`;

/** SPEC §2: the whole-app error screen, with the exact texts. */
export function AppErrorScreen() {
  return (
    <main css={screen}>
      <div role="alert" css={css`max-width: 560px; text-align: center;`}>
        <h1>{MESSAGES.app.errorTitle}</h1>
        <p>{MESSAGES.app.errorText}</p>
        <div css={css`display: flex; gap: 12px; justify-content: center; margin-top: 24px;`}>
          <Button onClick={() => window.location.reload()}>{MESSAGES.app.refreshPage}</Button>
          <Button variant="secondary" onClick={() => window.history.back()}>
            {MESSAGES.app.goBack}
          </Button>
        </div>
      </div>
    </main>
  );
}

/** Startup failed before the app could render (bad or missing runtime config). */
export function StartupErrorScreen({ detail }: { detail: string }) {
  return (
    <main css={screen}>
      <div role="alert" css={css`max-width: 640px;`}>
        <h1>{MESSAGES.app.startupTitle}</h1>
        <p>{MESSAGES.app.startupApiMissing}</p>
        <pre
          css={(t: Theme) => css`
            white-space: pre-wrap;
            background: ${t.color.surfaceAlt};
            padding: ${t.space(3)};
            border-radius: ${t.radius.sm};
          `}
        >
          {detail}
        </pre>
        <Button onClick={() => window.location.reload()}>{MESSAGES.app.refreshPage}</Button>
      </div>
    </main>
  );
}
