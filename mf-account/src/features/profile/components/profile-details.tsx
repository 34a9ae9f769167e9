import { errorMessage } from '@app/api-client';
import {
  fieldErrors,
  LIMITS,
  MESSAGES,
  normalizeAddress,
  normalizeName,
  type Profile,
  ProfileUpdateSchema,
} from '@app/contracts';
import { Alert, Button, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { InputField } from '../../../components/input-field';
import { focusFirstError, useFocusAfterRender } from '../../../lib/focus';
import { useFormFields } from '../../../lib/form-fields';
import { TEXTS } from '../../../lib/texts';
import { updateProfile } from '../api/profile';
import { definitionList } from './account-overview';

const T = TEXTS.profile;
const P = MESSAGES.profile;
const E = MESSAGES.emailChange;

type FieldName =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'currentPassword'
  | 'street'
  | 'city'
  | 'postalCode'
  | 'country';
type Values = Record<FieldName, string>;
const FIELD_ORDER: FieldName[] = [
  'firstName',
  'lastName',
  'email',
  'currentPassword',
  'street',
  'city',
  'postalCode',
  'country',
];

/** ProfileUpdateSchema paths (and the API's field-error keys) -> form fields. */
const PATH_TO_FIELD: Record<string, FieldName> = {
  'name.first': 'firstName',
  'name.last': 'lastName',
  email: 'email',
  current_password: 'currentPassword',
  'address.street': 'street',
  'address.city': 'city',
  'address.postal_code': 'postalCode',
  'address.country': 'country',
};

function valuesOf(profile: Profile): Values {
  const name = normalizeName(profile.name);
  const address = normalizeAddress(profile.address);
  return {
    firstName: name.first,
    lastName: name.last,
    email: profile.email,
    currentPassword: '',
    street: address.street,
    city: address.city,
    postalCode: address.postal_code,
    country: address.country,
  };
}

function toFieldErrors(errors: Record<string, string>): Partial<Record<FieldName, string>> {
  const out: Partial<Record<FieldName, string>> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = PATH_TO_FIELD[path];
    if (field && !out[field]) out[field] = message;
  }
  return out;
}

function serverFieldErrors(error: unknown): Partial<Record<FieldName, string>> {
  const body = (error as { body?: Record<string, unknown> | null }).body;
  if (!body || typeof body !== 'object') return {};
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') strings[key] = value;
  return toFieldErrors(strings);
}

const headerCss = css`
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
  flex-wrap: wrap;
  h2 { margin: 0; font-size: 1.25rem; }
`;

const twoColumns = (t: Theme) => css`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr));
  column-gap: ${t.space(4)};
`;

interface Props {
  profile: Profile;
  onSaved: (profile: Profile) => void;
}

/** SPEC §2/§4 Profile: view mode or edit mode; save returns to view mode with a message hidden after 3 s. */
export function ProfileDetails({ profile, onSaved }: Props) {
  const [editing, setEditing] = useState(false);
  const { values, setValues, setErrors, showErrors, bind } = useFormFields<FieldName, Values>(() =>
    valuesOf(profile),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const editButtonId = useId();
  // Where focus goes once the render that changed the mode has committed.
  const setFocusAfter = useFocusAfterRender((target: 'edit' | 'form' | FieldName[]) => {
    if (target === 'edit') document.getElementById(editButtonId)?.focus();
    else if (target === 'form') focusFirstError(formRef.current, FIELD_ORDER);
    else focusFirstError(formRef.current, target);
  });

  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => setSaved(false), LIMITS.profileSuccessMs);
    return () => window.clearTimeout(timer);
  }, [saved]);

  const emailChanged = (email: string) => email.trim().toLowerCase() !== profile.email.trim().toLowerCase();

  const startEditing = () => {
    setValues(valuesOf(profile));
    setErrors({});
    setFailure(null);
    setSaved(false);
    setEditing(true);
    setFocusAfter('form');
  };

  const cancel = () => {
    setEditing(false);
    setErrors({});
    setFailure(null);
    setFocusAfter('edit');
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    // Issue 46: a new email needs the current password, as a password change does.
    const changesEmail = emailChanged(values.email);
    const parsed = v.safeParse(ProfileUpdateSchema, {
      ...(changesEmail ? { current_password: values.currentPassword } : {}),
      name: { first: values.firstName, last: values.lastName },
      email: values.email,
      address: {
        street: values.street,
        city: values.city,
        postal_code: values.postalCode,
        country: values.country,
      },
    });
    const found = parsed.success ? {} : toFieldErrors(fieldErrors(parsed.issues));
    if (changesEmail && values.currentPassword === '') found.currentPassword = E.passwordRequired;
    if (!parsed.success || Object.keys(found).length > 0) {
      showErrors(found, formRef.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const updated = await updateProfile(parsed.output);
      setBusy(false);
      onSaved(updated);
      setEditing(false);
      setSaved(true);
      setValues((current) => ({ ...current, currentPassword: '' }));
      setFocusAfter('edit');
    } catch (error) {
      setBusy(false);
      setFailure(errorMessage(error, P.updateFailed));
      const found = serverFieldErrors(error);
      setErrors(found);
      const names = FIELD_ORDER.filter((name) => found[name]);
      if (names.length > 0) setFocusAfter(names);
    }
  };

  const field = (name: FieldName, label: string, extra: Partial<Parameters<typeof InputField>[0]> = {}) => (
    <InputField label={label} {...bind(name)} {...extra} />
  );

  const view = valuesOf(profile);
  const shown = (value: string) => (value.trim() === '' ? T.empty : value);

  return (
    <Card aria-labelledby="profile-details-title">
      <div css={headerCss}>
        <h2 id="profile-details-title">{T.details}</h2>
        {!editing && (
          <Button id={editButtonId} variant="secondary" size="sm" onClick={startEditing}>
            {T.edit}
          </Button>
        )}
      </div>
      {saved && <Alert tone="success">{P.updated}</Alert>}
      {profile.pending_email && <Alert tone="info">{E.pending(profile.pending_email)}</Alert>}
      {failure && <Alert tone="error">{failure}</Alert>}
      {editing ? (
        <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={T.edit}>
          <fieldset disabled={busy} css={css`border: none; margin: 0; padding: 0; min-width: 0;`}>
            <InputField label={T.username} name="username" value={profile.username} readOnly />
            <div css={twoColumns}>
              {field('firstName', T.firstName, { required: true, autoComplete: 'given-name' })}
              {field('lastName', T.lastName, { autoComplete: 'family-name' })}
            </div>
            {field('email', T.email, { required: true, type: 'email', autoComplete: 'email' })}
            {emailChanged(values.email) &&
              field('currentPassword', T.currentPassword, {
                required: true,
                type: 'password',
                autoComplete: 'current-password',
              })}
            {field('street', T.street, { required: true, autoComplete: 'street-address' })}
            <div css={twoColumns}>
              {field('city', T.city, { autoComplete: 'address-level2' })}
              {field('postalCode', T.postalCode, { autoComplete: 'postal-code' })}
            </div>
            {field('country', T.country, { autoComplete: 'country-name' })}
            <div css={css`display: flex; gap: 12px; flex-wrap: wrap;`}>
              <Button type="submit">{busy ? T.saving : T.save}</Button>
              <Button variant="secondary" onClick={cancel}>
                {T.cancel}
              </Button>
            </div>
          </fieldset>
        </form>
      ) : (
        <dl css={definitionList}>
          <dt>{T.username}</dt>
          <dd>{profile.username}</dd>
          <dt>{T.firstName}</dt>
          <dd>{shown(view.firstName)}</dd>
          <dt>{T.lastName}</dt>
          <dd>{shown(view.lastName)}</dd>
          <dt>{T.email}</dt>
          <dd>{shown(view.email)}</dd>
          <dt>{T.street}</dt>
          <dd>{shown(view.street)}</dd>
          <dt>{T.city}</dt>
          <dd>{shown(view.city)}</dd>
          <dt>{T.postalCode}</dt>
          <dd>{shown(view.postalCode)}</dd>
          <dt>{T.country}</dt>
          <dd>{shown(view.country)}</dd>
        </dl>
      )}
    </Card>
  );
}
