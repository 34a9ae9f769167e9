import {
  ContactInputSchema,
  ImpressumInputSchema,
  SITE_ENV_VARIABLES,
  type SiteRecordKey,
} from '@app/contracts/site-admin';
import * as v from 'valibot';

/**
 * The company's own details as configuration (issue 34): the defaults the records are stored with on the first
 * start, and the SITE_* / CONTACT_* variables actually set, which overwrite those fields at every start
 * (db/seed.ts). Every other change is an administrator's, in the browser (routes/admin-site.ts).
 */
const Text = v.pipe(v.string(), v.maxLength(500));
const ImpressumConfigSchema = v.object({
  name: Text,
  street: Text,
  city: Text,
  country: Text,
  representative: Text,
  email: Text,
  phone: Text,
  register: Text,
  vatId: Text,
});
const ContactConfigSchema = v.object({ email: Text, phone: Text, address: Text });

export const SiteConfigSchema = v.object({
  impressum: ImpressumConfigSchema,
  contact: ContactConfigSchema,
  /** Only the fields whose variable is set (non-blank); what is absent here is never touched at start. */
  fromEnvironment: v.object({
    impressum: v.partial(ImpressumConfigSchema),
    contact: v.partial(ContactConfigSchema),
  }),
});
export type SiteConfig = v.InferOutput<typeof SiteConfigSchema>;

/**
 * A fictional company: no register court, street, town or number here belongs to anyone. Musterstadt and
 * Erika Mustermann are the usual German placeholders, and no German subscriber number starts with 0, so the phone
 * reaches nobody. An operator sets SITE_* / CONTACT_* or edits them at /admin/company.
 */
export const DEFAULT_SITE: SiteConfig = {
  impressum: {
    name: 'Risk & Opportunity Intelligence GmbH',
    street: 'Musterstraße 1',
    city: '99999 Musterstadt',
    country: 'Germany',
    representative: 'Erika Mustermann (Managing Director)',
    email: 'info@risk-intel.example',
    phone: '+49 30 0000000',
    register: 'Amtsgericht Musterstadt, HRB 00000 (fictional)',
    vatId: 'DE000000000',
  },
  contact: {
    email: 'contact@risk-intel.example',
    phone: '+49 30 0000000',
    address: 'Musterstraße 1, 99999 Musterstadt, Germany',
  },
  fromEnvironment: { impressum: {}, contact: {} },
};

type Env = Record<string, string | undefined>;
const INPUT = { impressum: ImpressumInputSchema, contact: ContactInputSchema } as const;

/**
 * The set variables of one record, each checked like the screen's input (a bad SITE_EMAIL stops the start
 * with its name, instead of putting a broken address on the legal page). Blank counts as unset, as for every
 * other variable of config.ts.
 */
function setFields<K extends SiteRecordKey>(env: Env, key: K): SiteConfig['fromEnvironment'][K] {
  const out: Record<string, string> = {};
  for (const [field, variable] of Object.entries(SITE_ENV_VARIABLES[key])) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const schema = (INPUT[key].entries as Record<string, v.GenericSchema>)[field];
    const parsed = v.safeParse(schema as v.GenericSchema, raw);
    if (!parsed.success) throw new Error(`Invalid configuration at ${variable}: ${parsed.issues[0].message}`);
    out[field] = parsed.output as string;
  }
  return out as SiteConfig['fromEnvironment'][K];
}

/** config.site from the environment: the defaults with the set variables laid over them, and which are set. */
export function siteFrom(env: Env, defaults: SiteConfig = DEFAULT_SITE): SiteConfig {
  const impressum = setFields(env, 'impressum');
  const contact = setFields(env, 'contact');
  return {
    impressum: { ...defaults.impressum, ...impressum },
    contact: { ...defaults.contact, ...contact },
    fromEnvironment: { impressum, contact },
  };
}
