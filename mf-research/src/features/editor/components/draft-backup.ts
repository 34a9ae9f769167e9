import { CONTENT_TYPES, VISIBILITIES } from '@app/contracts';
import { FIELD_ORDER, type FormValues } from './form-values';

/**
 * The form is copied to sessionStorage as the user types, so nothing is lost if a save fails, the session
 * expires (a 401 clears the token), or the user leaves by the Back button. Cleared after a successful save.
 */
const keyFor = (postId: string | undefined) => `mf-research:editor:${postId ?? 'new'}`;

export function readBackup(postId: string | undefined): FormValues | null {
  try {
    const raw = sessionStorage.getItem(keyFor(postId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Record<string, unknown>>;
    if (!FIELD_ORDER.every((k) => typeof parsed[k] === 'string')) return null;
    if (!(CONTENT_TYPES.values as readonly unknown[]).includes(parsed.content_type)) return null;
    if (!(VISIBILITIES.values as readonly unknown[]).includes(parsed.visibility)) return null;
    return parsed as unknown as FormValues;
  } catch {
    return null;
  }
}

export function writeBackup(postId: string | undefined, values: FormValues | null): void {
  try {
    if (values) sessionStorage.setItem(keyFor(postId), JSON.stringify(values));
    else sessionStorage.removeItem(keyFor(postId));
  } catch {
    // Storage full or unavailable: the form itself still holds the values.
  }
}
