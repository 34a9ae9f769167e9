import * as v from 'valibot';
import { ContactSchema, ImpressumSchema } from './public-pages';

/**
 * The company's own details (Impressum and Contact), edited by administrators in mf-public-pages'
 * /admin/company (issue 34). Stored once at the first start; afterwards only this screen changes them, except
 * that a SITE_* / CONTACT_* variable set in the environment wins at every start (the screen says which).
 */
const field = (label: string, max: number) =>
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(max, `${label} must be at most ${max} characters`),
      // An empty field is stored as null: the page then leaves the line out.
      v.transform((s) => (s === '' ? null : s)),
    ),
  );
const email = (label: string) =>
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(254, `${label} must be at most 254 characters`),
      v.check((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), `${label} must be an email address`),
      v.transform((s) => (s === '' ? null : s)),
    ),
  );

export const ImpressumInputSchema = v.object({
  name: v.pipe(
    v.string('Company name is required'),
    v.trim(),
    v.nonEmpty('Company name is required'),
    v.maxLength(200, 'Company name must be at most 200 characters'),
  ),
  street: field('Street', 200),
  city: field('City', 200),
  country: field('Country', 100),
  representative: field('Representative', 200),
  email: email('Email'),
  phone: field('Phone', 50),
  register: field('Register entry', 200),
  vatId: field('VAT ID', 50),
});
export const ContactInputSchema = v.object({
  email: email('Email'),
  phone: field('Phone', 50),
  address: field('Address', 300),
});

/** GET /api/admin/site: both records and which of their fields the environment pins at start. */
export const SiteDetailsSchema = v.object({
  impressum: ImpressumSchema,
  contact: ContactSchema,
  /** Field names per record that a SITE_* / CONTACT_* variable sets, e.g. `{impressum:['name'], contact:[]}`. */
  fromEnvironment: v.object({ impressum: v.array(v.string()), contact: v.array(v.string()) }),
});
export type SiteDetails = v.InferOutput<typeof SiteDetailsSchema>;

/**
 * The variable that sets each field at start. The API reads them (config.ts) and the screen names them next to
 * a pinned field, so an administrator knows why an edit will not survive the next restart.
 */
export const SITE_ENV_VARIABLES = {
  impressum: {
    name: 'SITE_NAME',
    street: 'SITE_STREET',
    city: 'SITE_CITY',
    country: 'SITE_COUNTRY',
    representative: 'SITE_REPRESENTATIVE',
    email: 'SITE_EMAIL',
    phone: 'SITE_PHONE',
    register: 'SITE_REGISTER',
    vatId: 'SITE_VAT_ID',
  },
  contact: { email: 'CONTACT_EMAIL', phone: 'CONTACT_PHONE', address: 'CONTACT_ADDRESS' },
} as const;
export type SiteRecordKey = keyof typeof SITE_ENV_VARIABLES;

/** The texts of the /admin/company screen (SPEC §2, Admin: company details). */
export const SITE_ADMIN_MESSAGES = {
  title: 'Company details',
  intro:
    'What the Impressum and Contact pages show. Changes are visible on the next page load and recorded in the admin audit.',
  adminOnly: 'Administrators only. Log in with an administrator account to edit the company details.',
  loadFailed: 'Error loading the company details',
  impressumHeading: 'Impressum',
  contactHeading: 'Contact',
  saveImpressum: 'Save Impressum',
  saveContact: 'Save Contact',
  saving: 'Saving...',
  saved: 'Saved. The public page shows the new details now.',
  saveFailed: 'Error saving the company details',
  fixErrors: 'Please correct the marked fields.',
  pinned: (variable: string) => `Set by ${variable} on this server: the environment wins at the next start.`,
} as const;
