import { ApiError, errorMessage } from '@app/api-client';
import { type SiteDetails, type SiteRecordKey, SITE_ADMIN_MESSAGES as T } from '@app/contracts/site-admin';
import { useState } from 'react';
import * as v from 'valibot';
import { RECORD_FORMS } from '../lib/fields';

type Values = Record<string, string>;
type Stored = Record<string, string | null>;

/** What the inputs show: a stored null is an empty field. */
const toValues = (stored: Stored): Values =>
  Object.fromEntries(Object.entries(stored).map(([key, value]) => [key, value ?? '']));

/** A field error per field the API named in its 400 body (`{error, email: '…'}`), as `parseWith` answers. */
function serverFieldErrors(record: SiteRecordKey, failure: unknown): Record<string, string> {
  if (!(failure instanceof ApiError) || failure.status !== 400 || !failure.body) return {};
  const body = failure.body as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const { name } of RECORD_FORMS[record].fields) {
    if (typeof body[name] === 'string') out[name] = body[name];
  }
  return out;
}

/**
 * One record's form: checked with the API's own schema before it is sent, the API's answer to a bad value shown
 * at its field, and what was typed kept on any error (only a save replaces it, with what was stored).
 */
export function useRecordForm(
  record: SiteRecordKey,
  initial: Stored,
  save: (input: Values) => Promise<SiteDetails>,
  onSaved: (details: SiteDetails) => void,
) {
  const [values, setValues] = useState<Values>(() => toValues(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const change = (name: string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors(({ [name]: _cleared, ...rest }) => rest);
    setSaved(false);
  };

  /** Resolves with the fields in error (empty when saved), so the form can move focus to the first. */
  const submit = async (): Promise<string[]> => {
    const checked = v.safeParse(RECORD_FORMS[record].schema, values);
    if (!checked.success) {
      const nested = v.flatten(checked.issues).nested ?? {};
      const found = Object.fromEntries(
        Object.entries(nested).map(([key, messages]) => [key, (messages as string[])[0] ?? T.saveFailed]),
      );
      setErrors(found);
      setError(T.fixErrors);
      setSaved(false);
      return Object.keys(found);
    }
    setBusy(true);
    setError(null);
    try {
      const details = await save(values);
      setValues(toValues(details[record]));
      setErrors({});
      setSaved(true);
      onSaved(details);
      return [];
    } catch (failure) {
      const found = serverFieldErrors(record, failure);
      setErrors(found);
      setError(errorMessage(failure, T.saveFailed));
      setSaved(false);
      return Object.keys(found);
    } finally {
      setBusy(false);
    }
  };

  return { values, errors, error, saved, busy, change, submit };
}
