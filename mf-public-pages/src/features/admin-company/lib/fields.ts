import {
  ContactInputSchema,
  ImpressumInputSchema,
  SITE_ENV_VARIABLES,
  type SiteRecordKey,
} from '@app/contracts/site-admin';

export interface FieldSpec {
  name: string;
  label: string;
  type?: 'email' | 'tel';
  autoComplete?: string;
}

/** The form of each record: its fields in the public page's order, with the labels the API's errors use. */
export const RECORD_FORMS = {
  impressum: {
    schema: ImpressumInputSchema,
    fields: [
      { name: 'name', label: 'Company name', autoComplete: 'organization' },
      { name: 'street', label: 'Street' },
      { name: 'city', label: 'City' },
      { name: 'country', label: 'Country' },
      { name: 'representative', label: 'Representative' },
      { name: 'email', label: 'Email', type: 'email' },
      { name: 'phone', label: 'Phone', type: 'tel' },
      { name: 'register', label: 'Register entry' },
      { name: 'vatId', label: 'VAT ID' },
    ],
  },
  contact: {
    schema: ContactInputSchema,
    fields: [
      { name: 'email', label: 'Email', type: 'email' },
      { name: 'phone', label: 'Phone', type: 'tel' },
      { name: 'address', label: 'Address' },
    ],
  },
} as const satisfies Record<SiteRecordKey, { schema: unknown; fields: readonly FieldSpec[] }>;

/** The variable that pins a field at start, e.g. SITE_NAME for the Impressum's name. */
export function envVariableOf(record: SiteRecordKey, field: string): string {
  return (SITE_ENV_VARIABLES[record] as Record<string, string>)[field] ?? field;
}
