import {
  fieldErrors,
  LIMITS,
  MESSAGES,
  type RegistrationForm,
  RegistrationFormSchema,
  toRegistrationPayload,
} from '@app/contracts';
import { Link, useNavigate } from '@app/router';
import { Alert, Button, inlineLinkStyles, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type ComponentProps, type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { InputField } from '../../../components/input-field';
import { FormCard, footerText, mutedText } from '../../../components/layout';
import { focusFirstError, useFocusAfterRender } from '../../../lib/focus';
import { useFormFields } from '../../../lib/form-fields';
import { TEXTS } from '../../../lib/texts';
import { registrationFailure, requestRegistration } from '../api/register';
import { RegistrationDone } from './registration-done';

const R = MESSAGES.register;
const T = TEXTS.register;

type FieldName = keyof Required<RegistrationForm>;
type Values = Record<FieldName, string>;

const EMPTY: Values = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  street: '',
  city: '',
  postalCode: '',
  country: '',
};

/** Form order = focus order for the first error after a failed submit. */
const FIELD_ORDER = Object.keys(EMPTY) as FieldName[];

interface Outcome {
  message: string;
  requiresActivation: boolean;
}

const REQUIREMENTS_ID = 'register-password-requirements';

const sectionCss = (t: Theme) => css`
  border: none;
  margin: 0 0 ${t.space(4)};
  padding: 0;
  min-width: 0;
  legend {
    font-size: ${t.font.h3};
    font-weight: 700;
    margin-bottom: ${t.space(3)};
    padding: 0;
  }
`;

const requirementsCss = (t: Theme) => css`
  background: ${t.color.surfaceAlt};
  border: 1px solid ${t.color.border};
  border-radius: ${t.radius.sm};
  padding: ${t.space(3)} ${t.space(4)};
  margin: 0 0 ${t.space(4)};
  font-size: ${t.font.small};
  p { margin: 0 0 ${t.space(1)}; font-weight: 600; }
  ul { margin: 0; padding-left: ${t.space(5)}; }
`;

const twoColumns = (t: Theme) => css`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(220px, 100%), 1fr));
  column-gap: ${t.space(4)};
`;

function Section({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset css={sectionCss}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

/** SPEC §2 Register, §4 registration states, §5 field rules, §8 registration failures. */
export function RegisterPage() {
  const navigate = useNavigate();
  const { values, setValues, setErrors, showErrors, bind } = useFormFields<FieldName, Values>(EMPTY);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  usePageTitle(outcome ? T.doneTitle : T.title);
  // Fields are disabled while busy: focus the first server-reported error after they are enabled again.
  const focusNext = useFocusAfterRender((names: FieldName[]) => focusFirstError(formRef.current, names));

  // SPEC §4: without activation the user is sent to /login after 3 s.
  useEffect(() => {
    if (!outcome || outcome.requiresActivation) return;
    const timer = window.setTimeout(() => navigate('/login'), LIMITS.registerRedirectMs);
    return () => window.clearTimeout(timer);
  }, [outcome, navigate]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setGeneralError(null);
    setOutcome(null);
    const parsed = v.safeParse(RegistrationFormSchema, values);
    if (!parsed.success) {
      showErrors(fieldErrors(parsed.issues) as Partial<Record<FieldName, string>>, formRef.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const response = await requestRegistration(toRegistrationPayload(parsed.output));
      setValues(EMPTY);
      setOutcome({ message: response.message, requiresActivation: response.requires_activation });
    } catch (error) {
      const failure = registrationFailure(error);
      if (failure.kind === 'fields') {
        setErrors(failure.fields);
        focusNext(FIELD_ORDER.filter((name) => name in failure.fields));
      } else {
        setGeneralError(failure.message);
      }
    } finally {
      setBusy(false);
    }
  };

  const field = (name: FieldName, label: string, extra: Partial<ComponentProps<typeof InputField>> = {}) => (
    <InputField label={label} {...bind(name)} {...extra} />
  );

  const activationNote = !outcome?.requiresActivation && (
    <p css={(t: Theme) => css`${mutedText(t)}; margin-top: ${t.space(4)}; text-align: center;`}>
      {R.activationNote}
    </p>
  );

  if (outcome) {
    return (
      <FormCard maxWidth="600px">
        <RegistrationDone message={outcome.message} requiresActivation={outcome.requiresActivation} />
        {activationNote}
      </FormCard>
    );
  }

  return (
    <FormCard maxWidth="600px">
      <h1>{T.title}</h1>
      <p css={mutedText}>{T.requiredHint}</p>
      {generalError && <Alert tone="error">{generalError}</Alert>}
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={T.title}>
        <fieldset disabled={busy} css={css`border: none; margin: 0; padding: 0; min-width: 0;`}>
          <Section legend={T.account}>
            {field('username', T.username, { required: true, autoComplete: 'username' })}
            {field('email', T.email, { required: true, type: 'email', autoComplete: 'email' })}
            <div css={requirementsCss} id={REQUIREMENTS_ID}>
              <p>{T.requirementsTitle}</p>
              <ul>
                {T.requirements.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </div>
            {field('password', T.password, {
              required: true,
              type: 'password',
              autoComplete: 'new-password',
              describedBy: REQUIREMENTS_ID,
            })}
            {field('confirmPassword', T.confirmPassword, {
              required: true,
              type: 'password',
              autoComplete: 'new-password',
            })}
          </Section>
          <Section legend={T.personal}>
            <div css={twoColumns}>
              {field('firstName', T.firstName, { required: true, autoComplete: 'given-name' })}
              {field('lastName', T.lastName, { autoComplete: 'family-name' })}
            </div>
          </Section>
          <Section legend={T.address}>
            {field('street', T.street, { required: true, autoComplete: 'street-address' })}
            <div css={twoColumns}>
              {field('city', T.city, { autoComplete: 'address-level2' })}
              {field('postalCode', T.postalCode, { autoComplete: 'postal-code' })}
            </div>
            {field('country', T.country, { autoComplete: 'country-name' })}
          </Section>
          <Button type="submit" css={css`width: 100%;`}>
            {busy ? R.creating : R.create}
          </Button>
        </fieldset>
      </form>
      {activationNote}
      <p css={footerText}>
        {T.haveAccount}{' '}
        <Link to="/login" css={inlineLinkStyles}>
          {T.signIn}
        </Link>
      </p>
    </FormCard>
  );
}
