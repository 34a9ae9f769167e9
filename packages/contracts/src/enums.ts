import * as v from 'valibot';

/** A fixed list of values plus the label a user reads for each. */
function labelled<const T extends string>(entries: readonly (readonly [T, string])[]) {
  const values = entries.map(([value]) => value) as unknown as readonly [T, ...T[]];
  const labels = Object.fromEntries(entries) as Record<T, string>;
  return { values, labels, schema: v.picklist(values) };
}

export const CONTENT_TYPES = labelled([
  ['research_report', 'Research Report'],
  ['threat_intel', 'Threat Intelligence'],
  ['market_analysis', 'Market Analysis'],
  ['osint', 'OSINT Analysis'],
  ['case_study', 'Case Study'],
  ['technical', 'Technical Report'],
] as const);
export const ContentTypeSchema = CONTENT_TYPES.schema;
export type ContentType = v.InferOutput<typeof ContentTypeSchema>;

export const VISIBILITIES = labelled([
  ['public', 'Public'],
  ['members_only', 'Members'],
  ['paid-tier-1', 'Premium'],
  ['paid-tier-2', 'Premium Pro'],
  ['private', 'Admin Only'],
] as const);
export const VisibilitySchema = VISIBILITIES.schema;
export type Visibility = v.InferOutput<typeof VisibilitySchema>;

export const POST_STATUSES = labelled([
  ['draft', 'Draft'],
  ['published', 'Published'],
] as const);
export const PostStatusSchema = POST_STATUSES.schema;
export type PostStatus = v.InferOutput<typeof PostStatusSchema>;

/** Roles that change what a user may see. Any other logged-in user is a basic member. */
export const ROLES = labelled([
  ['admin', 'Administrator'],
  ['paid-tier-1', 'Premium'],
  ['paid-tier-2', 'Premium Pro'],
] as const);
export const RoleSchema = ROLES.schema;
export type Role = v.InferOutput<typeof RoleSchema>;

export const TIERS = labelled([
  ['guest', 'Guest'],
  ['basic', 'Basic Member'],
  ['premium', 'Premium'],
  ['premium_pro', 'Premium Pro'],
  ['admin', 'Administrator'],
] as const);
export type Tier = (typeof TIERS.values)[number];

// --- Market assessment survey (SPEC §3) ---

export const COMPANY_SIZES = labelled([
  ['10-50', '10-50 employees'],
  ['51-200', '51-200 employees'],
  ['201-500', '201-500 employees'],
  ['500+', '500+ employees'],
] as const);

export const INDUSTRIES = labelled([
  ['manufacturing', 'Manufacturing'],
  ['technology', 'Technology'],
  ['professional-services', 'Professional Services'],
  ['healthcare', 'Healthcare'],
  ['financial-services', 'Financial Services'],
  ['retail', 'Retail'],
  ['construction', 'Construction'],
  ['logistics', 'Logistics'],
  ['other', 'Other'],
] as const);

export const BUSINESS_ROLES = labelled([
  ['ceo', 'CEO'],
  ['cfo', 'CFO'],
  ['coo', 'COO'],
  ['manager', 'Manager'],
  ['department-head', 'Department Head'],
  ['business-owner', 'Business Owner'],
  ['other', 'Other'],
] as const);

export const YEARS_IN_ROLE = labelled([
  ['less-than-1', 'Less than 1 year'],
  ['1-3', '1-3 years'],
  ['4-7', '4-7 years'],
  ['8-15', '8-15 years'],
  ['15+', 'More than 15 years'],
] as const);

export const REPORT_FREQUENCIES = labelled([
  ['weekly', 'Weekly'],
  ['bi-weekly', 'Bi-weekly'],
  ['monthly', 'Monthly'],
  ['quarterly', 'Quarterly'],
  ['on-demand', 'On demand'],
] as const);

export const URGENCIES = labelled([
  ['immediate', 'Immediate (within a month)'],
  ['short-term', 'Short term (1-3 months)'],
  ['medium-term', 'Medium term (3-6 months)'],
  ['long-term', 'Long term (6+ months)'],
] as const);

export const COMMUNICATION_METHODS = labelled([
  ['email', 'Email only'],
  ['email-phone', 'Email and a phone call'],
  ['email-meeting', 'Email and a video meeting'],
  ['comprehensive', 'Comprehensive (email, phone and meetings)'],
] as const);

/** 12 options: the spec gives only the count; these fit small and mid-sized businesses. */
export const CHALLENGES = labelled([
  ['rising-costs', 'Rising operating costs'],
  ['talent-shortage', 'Hiring and keeping skilled staff'],
  ['supply-chain', 'Supply chain disruption'],
  ['cash-flow', 'Cash flow and access to financing'],
  ['competition', 'New or aggressive competitors'],
  ['digital-transformation', 'Digital transformation'],
  ['cybersecurity', 'Cybersecurity threats'],
  ['regulation', 'Regulatory and compliance burden'],
  ['customer-retention', 'Winning and keeping customers'],
  ['market-volatility', 'Market and demand volatility'],
  ['scaling-operations', 'Scaling operations'],
  ['succession', 'Leadership and succession planning'],
] as const);

/** 6 options. */
export const RISK_CONCERNS = labelled([
  ['economic-downturn', 'Economic downturn'],
  ['cyber-attack', 'Cyber attack or data breach'],
  ['supplier-failure', 'Key supplier failure'],
  ['regulatory-change', 'Regulatory change'],
  ['reputation', 'Reputational damage'],
  ['geopolitical', 'Geopolitical and trade risk'],
] as const);

/** 8 options. */
export const GROWTH_GOALS = labelled([
  ['new-markets', 'Enter new markets'],
  ['new-products', 'Launch new products or services'],
  ['increase-margins', 'Increase margins'],
  ['acquisitions', 'Grow through acquisitions'],
  ['international', 'Expand internationally'],
  ['automation', 'Automate and improve efficiency'],
  ['partnerships', 'Build strategic partnerships'],
  ['funding', 'Raise investment'],
] as const);

/** 12 options. */
export const INTELLIGENCE_TOPICS = labelled([
  ['competitor-monitoring', 'Competitor monitoring'],
  ['market-trends', 'Market trends'],
  ['industry-benchmarks', 'Industry benchmarks'],
  ['supply-chain-risk', 'Supply chain risk'],
  ['cyber-threats', 'Cyber threat intelligence'],
  ['regulatory-updates', 'Regulatory updates'],
  ['economic-indicators', 'Economic indicators'],
  ['customer-insights', 'Customer insights'],
  ['technology-trends', 'Technology trends'],
  ['pricing-intelligence', 'Pricing intelligence'],
  ['talent-market', 'Talent market'],
  ['mergers-acquisitions', 'Mergers and acquisitions activity'],
] as const);
