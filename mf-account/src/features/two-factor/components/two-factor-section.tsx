import { MESSAGES, type RecoveryCodes, type TwoFactorSetup } from '@app/contracts';
import { useServerState } from '@app/server-state';
import { Alert, Button, Card, LoadErrorAlert, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type ReactElement, useId, useState } from 'react';
import { disableTwoFactor, fetchTwoFactor, startSetup } from '../api/two-factor';
import { TWO_FACTOR_TEXTS as T } from '../texts';
import { AuthenticatorSetup, RecoveryCodeList } from './authenticator-setup';
import { PasswordCodeForm } from './password-code-form';

/** What the section shows: the status, one of its two forms, the new secret, or the recovery codes. */
type Step =
  | { kind: 'status' }
  | { kind: 'start' }
  | { kind: 'off' }
  | { kind: 'scan'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: RecoveryCodes };

const sectionCss = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  h2 { margin: 0; font-size: ${t.font.h3}; }
  p { margin: 0; }
  .buttons { display: flex; gap: ${t.space(3)}; flex-wrap: wrap; }
`;

/**
 * The profile's two-factor section (issue 46): members may and administrators must set up TOTP. Set up:
 * the password, then the QR code and a code from the app, then the recovery codes once. Replacing needs the
 * current code as well; turning off (members only) the password and a code.
 */
export function TwoFactorSection() {
  const titleId = useId();
  const [step, setStep] = useState<Step>({ kind: 'status' });
  const [notice, setNotice] = useState<string | null>(null);
  const status = useServerState((signal) => fetchTwoFactor(signal), []);
  const go = (next: Step) => {
    setNotice(null);
    setStep(next);
  };

  let body: ReactElement;
  if (status.status === 'error') {
    body = (
      <LoadErrorAlert error={status.error} fallback={MESSAGES.general.fallback} onRetry={status.reload} />
    );
  } else if (!status.data) {
    body = <Skeleton height="80px" />;
  } else if (step.kind === 'start') {
    body = (
      <PasswordCodeForm
        withCode={status.data.enabled}
        submitLabel={T.continue}
        onSubmit={async (input) => go({ kind: 'scan', setup: await startSetup(input) })}
        onCancel={() => go({ kind: 'status' })}
      />
    );
  } else if (step.kind === 'off') {
    body = (
      <PasswordCodeForm
        withCode
        submitLabel={T.confirmOff}
        onSubmit={async (input) => {
          const { message } = await disableTwoFactor(input);
          go({ kind: 'status' });
          setNotice(message);
          status.reload();
        }}
        onCancel={() => go({ kind: 'status' })}
      />
    );
  } else if (step.kind === 'scan') {
    body = (
      <AuthenticatorSetup
        setup={step.setup}
        onConfirmed={(codes) => {
          go({ kind: 'codes', codes });
          status.reload();
        }}
        onCancel={() => go({ kind: 'status' })}
      />
    );
  } else if (step.kind === 'codes') {
    body = <RecoveryCodeList codes={step.codes} onDone={() => go({ kind: 'status' })} />;
  } else {
    const { enabled, required, recoveryCodesLeft } = status.data;
    body = (
      <>
        {notice && <Alert tone="success">{notice}</Alert>}
        {required && !enabled && <Alert tone="warning">{MESSAGES.twoFactor.setupRequired}</Alert>}
        <p>{enabled ? T.on(recoveryCodesLeft) : T.off}</p>
        {required && enabled && <p>{T.requiredNote}</p>}
        <div className="buttons">
          <Button onClick={() => go({ kind: 'start' })}>{enabled ? T.replace : T.setUp}</Button>
          {enabled && !required && (
            <Button variant="secondary" onClick={() => go({ kind: 'off' })}>
              {T.turnOff}
            </Button>
          )}
        </div>
      </>
    );
  }

  return (
    <Card>
      <section aria-labelledby={titleId} css={sectionCss}>
        <h2 id={titleId}>{T.title}</h2>
        {body}
      </section>
    </Card>
  );
}
