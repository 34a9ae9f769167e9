import * as v from 'valibot';
import { NullableString } from './schema-parts';

// What mf-public-pages shows: dashboards, the impressum and contact details.

export const DashboardSchema = v.object({ slug: v.string(), title: v.string(), description: v.string() });
export type Dashboard = v.InferOutput<typeof DashboardSchema>;
export const DashboardListSchema = v.array(DashboardSchema);

/** One month of an indicator: period is `YYYY-MM`. */
export const DashboardPointSchema = v.object({ period: v.string(), value: v.number() });
export type DashboardPoint = v.InferOutput<typeof DashboardPointSchema>;
export const DashboardIndicatorSchema = v.object({
  id: v.string(),
  title: v.string(),
  /** Shown after each value: '%' directly, any other unit after a space ('days', 'USD'); '' for a plain index. */
  unit: v.string(),
  description: v.string(),
  points: v.array(DashboardPointSchema),
});
export type DashboardIndicator = v.InferOutput<typeof DashboardIndicatorSchema>;
/** GET /api/dashboards/{slug}: the dashboard and its indicators' series (demo data). */
export const DashboardDetailSchema = v.object({
  ...DashboardSchema.entries,
  indicators: v.array(DashboardIndicatorSchema),
});
export type DashboardDetail = v.InferOutput<typeof DashboardDetailSchema>;

export const ImpressumSchema = v.object({
  name: NullableString,
  street: NullableString,
  city: NullableString,
  country: NullableString,
  representative: NullableString,
  email: NullableString,
  phone: NullableString,
  register: NullableString,
  vatId: NullableString,
});
export type Impressum = v.InferOutput<typeof ImpressumSchema>;

export const ContactSchema = v.object({
  email: NullableString,
  phone: NullableString,
  address: NullableString,
});
export type Contact = v.InferOutput<typeof ContactSchema>;
