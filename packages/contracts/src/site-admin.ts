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
