import { EMPTY_VALUE, orDash } from '../lib/display';

/** An email address as a mailto: link, or the dash SPEC §2 shows for an empty value. */
export function EmailValue({ email }: { email: string | null | undefined }) {
  const value = orDash(email);
  return value === EMPTY_VALUE ? value : <a href={`mailto:${value}`}>{value}</a>;
}

/** A phone number as a tel: link (digits and a leading + only, as dialers expect), or the dash. */
export function PhoneValue({ phone }: { phone: string | null | undefined }) {
  const value = orDash(phone);
  return value === EMPTY_VALUE ? value : <a href={`tel:${value.replace(/[^\d+]/g, '')}`}>{value}</a>;
}
