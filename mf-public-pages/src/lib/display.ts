/** SPEC §2: empty values on the contact and impressum pages show a dash. */
export const EMPTY_VALUE = '-';

export function orDash(value: string | null | undefined): string {
  return value == null || value.trim() === '' ? EMPTY_VALUE : value;
}
