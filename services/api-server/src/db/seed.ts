import { randomBytes } from 'node:crypto';
import type { ContentType, PostStatus, Visibility } from '@app/contracts';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { AccountService } from '../services/accounts';
import type { PostService } from '../services/posts';
import type { SiteService } from '../services/site';
import { DASHBOARD_SERIES } from './dashboard-series';
import type { Sql } from './sql';

interface DemoPost {
  title: string;
  summary: string;
  type: ContentType;
  visibility: Visibility;
  status?: PostStatus;
  tags: string[];
  categories: string[];
  body: string;
}

const DEMO_POSTS: DemoPost[] = [
  {
    title: 'Mid-Market Risk Outlook 2026: Five Pressures to Plan For',
    summary:
      'Interest costs, wage inflation, supplier concentration, cyber extortion and regulation top the list for firms with 50 to 500 staff.',
    type: 'research_report',
    visibility: 'public',
    tags: ['outlook', 'planning', 'smb'],
    categories: ['Risk Management', 'Strategy'],
    body: `## Why this outlook matters

Mid-sized firms carry most of the operational risk of a large enterprise with a fraction of the staff to manage it. We surveyed 412 leaders of companies with 50 to 500 employees and combined their answers with public insolvency and incident data.

## The five pressures

1. **Refinancing costs.** Roughly a third of credit lines taken out in 2021 come up for renewal this year at rates two to three points higher.
2. **Wage inflation in skilled roles.** Technicians, accountants and developers saw raises of 6-9%, well above list-price increases.
3. **Supplier concentration.** 58% of respondents rely on a single source for at least one critical input.
4. **Cyber extortion.** Ransomware crews increasingly target firms that lack a dedicated security team.
5. **Regulatory load.** Sustainability reporting and new data rules reach deeper into the supply chain.

## What to do this quarter

- Map which contracts, loans and suppliers expire in the next 18 months.
- Stress-test cash flow against a 15% drop in revenue.
- Name one owner for each of the five pressures and review them monthly.`,
  },
  {
    title: 'Ransomware Groups Shift Focus to Regional Manufacturers',
    summary:
      'Initial access brokers are selling footholds in small manufacturing networks; remote access tools and unpatched VPNs are the usual way in.',
    type: 'threat_intel',
    visibility: 'public',
    tags: ['ransomware', 'manufacturing', 'vpn'],
    categories: ['Cybersecurity'],
    body: `## Summary

Over the last two quarters we tracked a steady rise in extortion cases against manufacturers with 100 to 400 employees. Attackers favour firms whose production stops when IT stops, because they pay faster.

## How they get in

- **Unpatched VPN appliances**, often more than 90 days behind on updates.
- **Remote support tools** left running after a vendor visit.
- **Reused passwords** from earlier breaches, tried against webmail and VPN portals.

## Indicators worth watching

| Signal | Why it matters |
|---|---|
| New admin accounts created at night | Typical first step after access |
| Backup jobs disabled or failing | Attackers remove your recovery path |
| Large outbound transfers to cloud storage | Data theft before encryption |

## Recommended actions

Patch internet-facing devices within 14 days, require multi-factor authentication for every remote login, and keep one backup copy offline. Test a restore at least twice a year.`,
  },
  {
    title: 'Nearshoring in Central Europe: Where the Capacity Really Is',
    summary:
      'Poland, Czechia and Romania absorb most relocated production, but industrial land, power connections and skilled labour are tightening.',
    type: 'market_analysis',
    visibility: 'public',
    tags: ['nearshoring', 'supply-chain', 'europe'],
    categories: ['Supply Chain', 'Markets'],
    body: `## The trend

Since 2022, Western European firms have moved or duplicated production closer to home. Central Europe is the main winner, with new factory announcements up 40% on the pre-pandemic average.

## Constraints

- **Land and power.** Ready-to-build industrial plots with grid connections are scarce near major cities.
- **Labour.** Unemployment below 4% in many regions means new plants compete for the same workers.
- **Suppliers.** Tier-2 suppliers have not moved at the same pace, so lead times for components remain long.

## Opportunity

Smaller second-tier cities with technical colleges still offer capacity, and regional development agencies often co-fund training. Firms that commit early secure the best sites and staff.`,
  },
  {
    title: 'Reading Public Signals: An OSINT Primer for Business Leaders',
    summary:
      'How to track competitors, suppliers and customers with freely available sources, legally and without a dedicated analyst.',
    type: 'osint',
    visibility: 'public',
    tags: ['osint', 'competitors', 'methods'],
    categories: ['Intelligence Methods'],
    body: `## What OSINT is

Open-source intelligence means information anyone can lawfully obtain: company registers, job postings, patent filings, tenders, court records, trade press and social media.

## Five sources that pay off quickly

1. **Job postings.** A competitor hiring ten sales engineers in a new region is about to expand there.
2. **Company registers.** New subsidiaries, changes of directors and late filings all carry meaning.
3. **Public tenders.** Who wins which contracts, and at what price.
4. **Patent and trademark filings.** Early hints of new products.
5. **Shipping and customs data.** Volumes and routes of physical goods.

## Keep it clean

Stick to public information, respect terms of service, never impersonate anyone, and document where each finding came from.`,
  },
  {
    title: 'Case Study: How a 180-Person Logistics Firm Survived a Key Customer Loss',
    summary:
      'Losing 35% of revenue overnight forced a regional carrier to rebuild its customer base. What worked, what did not, and what it would do again.',
    type: 'case_study',
    visibility: 'public',
    tags: ['customer-concentration', 'logistics', 'turnaround'],
    categories: ['Case Studies', 'Strategy'],
    body: `## The situation

A regional carrier earned 35% of its revenue from one retailer. When the retailer moved to an in-house fleet, the contract ended with 90 days' notice.

## What they did

- **Week 1:** froze hiring, renegotiated fuel cards and leasing terms, and told staff the truth.
- **Month 1-3:** assigned every manager five prospects; pitched spare capacity to e-commerce firms at night and weekend slots.
- **Month 4-12:** added temperature-controlled transport after two pharmacy wholesalers asked for it.

## Results

Revenue was back to 92% of the previous level after 14 months, with no customer above 12% of sales.

## Lessons

Concentration risk is invisible while things go well. Track the share of your top three customers every quarter and set a ceiling.`,
  },
  {
    title: 'Multi-Factor Authentication Rollout: A Technical Checklist',
    summary:
      'A step-by-step plan for enabling MFA across email, VPN and cloud apps in a company of 50 to 500 people without stopping work.',
    type: 'technical',
    visibility: 'public',
    tags: ['mfa', 'identity', 'checklist'],
    categories: ['Cybersecurity', 'IT Operations'],
    body: `## Before you start

- Inventory every system that accepts a password from the internet.
- Decide on methods: authenticator apps for most staff, hardware keys for administrators and finance.

## Rollout in four waves

1. **Administrators** and anyone with access to payments.
2. **Remote access**: VPN and remote desktop gateways.
3. **Email and collaboration suites.**
4. **Everything else**, including line-of-business cloud apps.

## Pitfalls

\`\`\`text
Legacy protocols (IMAP, POP, SMTP AUTH) bypass MFA: switch them off.
Shared mailboxes need owners, not shared passwords.
Recovery codes must be stored, not printed on the monitor.
\`\`\`

Plan a help-desk surge for the first week of each wave.`,
  },
  {
    title: 'Energy Price Volatility and Small Manufacturers',
    summary:
      'Hedging, load shifting and on-site generation: which tools make sense for firms that spend 3-10% of revenue on energy.',
    type: 'research_report',
    visibility: 'public',
    tags: ['energy', 'costs', 'manufacturing'],
    categories: ['Risk Management', 'Operations'],
    body: `## The exposure

For a metal-working shop, energy can be the third-largest cost after staff and materials. Price spikes of 2022 showed how quickly margins disappear.

## Options compared

| Tool | Upfront cost | Effect |
|---|---|---|
| Fixed-price contracts | None | Predictable, but may lock in high prices |
| Load shifting | Low | 5-12% savings where tariffs vary by hour |
| Rooftop solar | Medium | Cuts daytime purchases by a quarter or more |
| Heat recovery | Medium | Often pays back in under three years |

## Our view

Combine a partly fixed contract with load shifting first; invest in generation once you know your load profile.`,
  },
  {
    title: 'Phishing Campaigns Impersonating Tax Authorities',
    summary:
      'A wave of convincing emails about refunds and penalties targets finance teams. Here is how to recognise and report them.',
    type: 'threat_intel',
    visibility: 'public',
    tags: ['phishing', 'finance', 'awareness'],
    categories: ['Cybersecurity'],
    body: `## What we observed

Messages claim a tax refund is waiting, or threaten a late-filing penalty, and link to a copy of the authority's login page. The sender domains look plausible at a glance.

## Tell-tale signs

- Urgency and a short deadline.
- Links to domains that are close to, but not exactly, the official one.
- Requests to confirm bank details by email.

## What to do

Forward suspicious messages to your IT contact, never enter credentials from an email link, and confirm any payment change by phone using a number you already have.`,
  },
  {
    title: 'Demand Signals in Professional Services for the Next Twelve Months',
    summary:
      'Compliance, cybersecurity and automation advice grow; general management consulting flattens as clients cut discretionary spend.',
    type: 'market_analysis',
    visibility: 'public',
    tags: ['professional-services', 'demand', 'forecast'],
    categories: ['Markets'],
    body: `## Where demand grows

- **Regulatory compliance**, driven by sustainability reporting and data-protection enforcement.
- **Cybersecurity services**, especially managed detection for firms without their own team.
- **Automation projects** that promise savings within a year.

## Where it flattens

Broad strategy projects and training budgets are the first to be cut when clients face higher financing costs.

## Implication

Firms that package narrow, outcome-based offers will win share from generalists.`,
  },
  {
    title: 'Mapping Supplier Networks from Public Data',
    summary:
      "A practical method to discover your suppliers' suppliers using customs records, certifications and registry filings.",
    type: 'osint',
    visibility: 'public',
    tags: ['supply-chain', 'osint', 'mapping'],
    categories: ['Supply Chain', 'Intelligence Methods'],
    body: `## Why map beyond tier 1

Most disruptions start two or three levels down. A fire at a resin plant can stop a packaging supplier you have never heard of.

## Method

1. List your critical tier-1 suppliers and what they ship you.
2. Search customs and shipping records for their inbound shipments.
3. Check certification databases (ISO, automotive and food standards) for sites and owners.
4. Cross-check company registers for shared owners and addresses.

## Output

A simple map with locations, single points of failure and alternatives. Review it twice a year.`,
  },
  {
    title: 'Case Study: A Family Retailer Goes Omnichannel on a Budget',
    summary:
      'A 12-store retailer added click-and-collect and a small online shop in six months, funded from savings in stock holding.',
    type: 'case_study',
    visibility: 'public',
    tags: ['retail', 'e-commerce', 'digital'],
    categories: ['Case Studies', 'Digital Transformation'],
    body: `## Starting point

Twelve stores, a ten-year-old till system and no online shop. Footfall was down 18% in three years.

## Steps

- Replaced the till system with a cloud point-of-sale that includes stock visibility across stores.
- Launched click-and-collect first: no delivery logistics, fast to learn.
- Added a small online shop with 400 best-selling items.

## Outcome

Online orders reached 9% of sales within a year; stock holding fell by 14% because stores could share inventory.`,
  },
  {
    title: 'Backup Strategy for Small IT Teams: 3-2-1 and Beyond',
    summary:
      'Immutable copies, restore testing and clear ownership: a technical guide to backups that survive ransomware.',
    type: 'technical',
    visibility: 'public',
    tags: ['backup', 'ransomware', 'resilience'],
    categories: ['IT Operations', 'Cybersecurity'],
    body: `## The rule

Keep **three** copies of data, on **two** different media, with **one** off-site. Against ransomware add: one copy immutable or offline.

## Checklist

- Separate backup credentials from the domain administrator account.
- Enable immutability (object lock) on cloud storage targets.
- Alert when a job fails or is disabled.
- Restore a full server, not just files, at least twice a year.

## Recovery time

Write down how long a full restore takes. If the answer is "we don't know", that is the first risk to fix.`,
  },
  {
    title: 'Credit Conditions for SMEs: What Lenders Are Asking For Now',
    summary:
      'Banks want more frequent reporting, tighter covenants and proof of cash-flow forecasting; here is how to prepare.',
    type: 'research_report',
    visibility: 'public',
    tags: ['finance', 'credit', 'cash-flow'],
    categories: ['Finance', 'Risk Management'],
    body: `## What changed

Lenders tightened standards for five consecutive quarters. Approval still happens, but with more conditions.

## Typical requests

- Monthly management accounts instead of annual statements.
- A 13-week rolling cash-flow forecast.
- Covenants on leverage and interest cover.

## How to prepare

Build the forecast before you need the loan, reconcile it monthly, and explain deviations. A lender who trusts your numbers prices the risk lower.`,
  },
  {
    title: 'Competitor Pricing Moves in Industrial Distribution',
    summary:
      'Members briefing: how three large distributors changed discount structures and what it means for regional competitors.',
    type: 'market_analysis',
    visibility: 'members_only',
    tags: ['pricing', 'distribution', 'competitors'],
    categories: ['Markets', 'Strategy'],
    body: `## The moves

Three national distributors replaced volume discounts with loyalty rebates paid annually. The effect is to lock in customers for twelve months.

## Implications for regional players

- Customers become reluctant to split orders.
- Service speed and technical advice become the main differentiators.

## Response options

Offer short-term rebates tied to specific product lines, and emphasise same-day delivery where the nationals are slower.`,
  },
  {
    title: 'Insider Risk Indicators for Growing Companies',
    summary:
      'Members briefing: behavioural and technical signals that precede data theft by departing employees.',
    type: 'threat_intel',
    visibility: 'members_only',
    tags: ['insider-risk', 'data-loss'],
    categories: ['Cybersecurity'],
    body: `## The pattern

Most insider data theft happens in the 30 days before an employee leaves, often to join a competitor.

## Signals

- Bulk downloads from CRM or file shares.
- Forwarding to personal email addresses.
- USB storage use by staff who never used it before.

## Controls

Clear policies, offboarding checklists and alerting on bulk exports catch most cases without heavy monitoring.`,
  },
  {
    title: 'Premium: Supplier Failure Early-Warning Scorecard',
    summary:
      'A scoring model combining payment behaviour, filings and hiring data to flag suppliers at risk of failure six months ahead.',
    type: 'research_report',
    visibility: 'paid-tier-1',
    tags: ['supplier-risk', 'scorecard', 'insolvency'],
    categories: ['Supply Chain', 'Risk Management'],
    body: `## The model

We back-tested twelve indicators against 1,800 supplier insolvencies. Six carried most of the predictive power.

## The six indicators

1. Days beyond terms on their own payables.
2. Late statutory filings.
3. Director changes within 12 months.
4. Hiring freeze after a period of growth.
5. Sudden price increases above market.
6. Court judgments for unpaid invoices.

## Using it

Score your top 30 suppliers quarterly. Any supplier above 3 points deserves a call and a second source.`,
  },
  {
    title: 'Premium: Cyber Insurance Market Review',
    summary: 'Premiums, exclusions and the controls insurers now require before they will quote.',
    type: 'market_analysis',
    visibility: 'paid-tier-1',
    tags: ['insurance', 'cyber', 'controls'],
    categories: ['Cybersecurity', 'Finance'],
    body: `## Market state

After two years of steep increases, premiums have stabilised, but underwriting is stricter.

## Required controls

- Multi-factor authentication on email and remote access.
- Endpoint detection and response on all devices.
- Offline or immutable backups.

## Watch the exclusions

War and state-actor clauses, and sub-limits for social-engineering fraud, vary widely between policies.`,
  },
  {
    title: 'Premium Pro: Acquisition Targets in Regional Engineering Services',
    summary:
      'A screened list of acquisition profiles, valuation ranges and integration risks for buyers in engineering services.',
    type: 'case_study',
    visibility: 'paid-tier-2',
    tags: ['m-and-a', 'engineering', 'valuation'],
    categories: ['Strategy', 'Finance'],
    body: `## Screening criteria

Revenue between 5 and 40 million, founder-owned, succession unresolved, recurring maintenance revenue above 30%.

## Valuation ranges

Recent deals closed at 5-7x EBITDA, with earn-outs common where the founder stays for two years.

## Integration risks

Key-person dependency and undocumented customer relationships are the most frequent reasons deals underperform.`,
  },
  {
    title: 'Premium Pro: Geopolitical Scenario Planning for Export-Led SMEs',
    summary:
      'Three scenarios for trade restrictions over the next three years and the playbooks to prepare for each.',
    type: 'research_report',
    visibility: 'paid-tier-2',
    tags: ['geopolitics', 'scenarios', 'export'],
    categories: ['Strategy', 'Risk Management'],
    body: `## Scenarios

1. **Managed friction:** tariffs rise modestly; compliance costs grow.
2. **Bloc formation:** trade splits along political lines; dual supply chains required.
3. **Sudden sanctions:** a key market closes within weeks.

## Playbooks

For each scenario we list triggers to watch, decisions to pre-approve and contracts to review now.`,
  },
  {
    title: 'Internal: Analyst Methodology Notes',
    summary: 'Admin-only notes on sourcing standards and confidence ratings used across our research.',
    type: 'technical',
    visibility: 'private',
    tags: ['methodology'],
    categories: ['Intelligence Methods'],
    body: `## Confidence ratings

- **High:** multiple independent sources agree.
- **Moderate:** credible sourcing, some gaps.
- **Low:** single source or significant uncertainty.

Every finding in a published report carries one of these ratings.`,
  },
  {
    title: 'Draft: Labour Market Tightness by Region',
    summary: 'Work in progress on regional vacancy rates and wage growth.',
    type: 'market_analysis',
    visibility: 'public',
    status: 'draft',
    tags: ['labour', 'wages'],
    categories: ['Markets'],
    body: `## Notes

Vacancy data collected for eight regions; wage growth series still missing for two.`,
  },
  {
    title: 'Draft: Cloud Cost Controls for Mid-Sized Firms',
    summary: 'Outline of a technical guide on tagging, budgets and rightsizing.',
    type: 'technical',
    visibility: 'members_only',
    status: 'draft',
    tags: ['cloud', 'costs'],
    categories: ['IT Operations'],
    body: `## Outline

1. Tagging policy
2. Budgets and alerts
3. Rightsizing and reserved capacity`,
  },
];

const DASHBOARDS = [
  {
    slug: 'risk-radar',
    title: 'Risk Radar',
    description: 'A live view of the top operational, financial and cyber risks for mid-sized companies.',
  },
  {
    slug: 'market-pulse',
    title: 'Market Pulse',
    description: 'Demand, pricing and sentiment indicators across nine industries, updated weekly.',
  },
  {
    slug: 'supply-chain-monitor',
    title: 'Supply Chain Monitor',
    description: 'Lead times, freight rates and supplier distress signals for key input categories.',
  },
  {
    slug: 'threat-landscape',
    title: 'Threat Landscape',
    description: 'Active phishing, ransomware and fraud campaigns targeting small and mid-sized businesses.',
  },
];

export const DEMO_AUTHOR = { username: 'research-desk', email: 'research-desk@risk-intel.example' };

/** Dashboards, their demo series, the impressum and contact records: what is missing, and the variables set. */
export async function seedBase(sql: Sql, config: Config, site: SiteService): Promise<void> {
  await sql.transaction(async (tx) => {
    if ((await tx.value<number>('SELECT COUNT(*) FROM dashboards')) !== 0) return;
    for (const [i, d] of DASHBOARDS.entries()) {
      await tx.run('INSERT INTO dashboards (slug, title, description, position) VALUES (?, ?, ?, ?)', [
        d.slug,
        d.title,
        d.description,
        i,
      ]);
    }
  });
  // Each record is one upsert of its own: two instances starting at once both write the same value.
  const has = async (key: string) =>
    (await sql.value('SELECT 1 FROM site_records WHERE key = ?', [key])) !== undefined;
  // Per slug, so a database seeded before dashboards had series gets them on its next start.
  for (const [slug, indicators] of Object.entries(DASHBOARD_SERIES)) {
    if (!(await has(site.indicatorsKey(slug)))) await site.setIndicators(slug, indicators);
  }
  // The company's records: stored with the defaults (and any SITE_* / CONTACT_* set) on the first start, then
  // only an administrator changes them (/admin/company), except that a variable set wins at every start.
  // A variable not set never touches what was stored.
  const { fromEnvironment } = config.site;
  for (const key of ['impressum', 'contact'] as const) {
    const fields = fromEnvironment[key];
    if (Object.keys(fields).length > 0) await site.overlay(key, config.site[key], fields);
    else if (!(await has(key))) await site.setRecord(key, config.site[key]);
  }
}

/** Demo posts on the first start of an empty database; remembered, so deleting them all does not bring them back. */
export async function seedDemo(
  sql: Sql,
  config: Config,
  services: { accounts: AccountService; posts: PostService; now: Clock },
): Promise<boolean> {
  const seeded = await sql.value("SELECT 1 FROM site_records WHERE key = 'demo_seeded'");
  const posts = (await sql.value<number>('SELECT COUNT(*) FROM posts')) ?? 0;
  if (seeded || posts > 0 || (await services.accounts.resolveUser(DEMO_AUTHOR.email))) return false;
  // The demo author gets a random password nobody knows: it exists to own the demo posts, not to log in.
  const { id: authorId } = await services.accounts.register(
    {
      username: DEMO_AUTHOR.username,
      password: `${randomBytes(24).toString('base64url')}aA1`,
      name: { first: 'Research', last: 'Desk' },
      email: DEMO_AUTHOR.email,
      address: { street: config.site.impressum.street, city: '', postal_code: '', country: '' },
    },
    { active: true },
  );
  const dayMs = 24 * 3600 * 1000;
  const start = services.now() - DEMO_POSTS.length * 3 * dayMs;
  // Each post is written through the service, in a write transaction of its own.
  for (const [i, p] of DEMO_POSTS.entries()) {
    await services.posts.create(
      authorId,
      {
        title: p.title,
        summary: p.summary,
        content: p.body,
        content_type: p.type,
        visibility: p.visibility,
        status: p.status ?? 'published',
        tags: p.tags,
        categories: p.categories,
      },
      new Date(start + i * 3 * dayMs).toISOString(),
    );
  }
  await sql.transaction(async (tx) => {
    // Plausible view counts so Analytics and the report are not all zeros.
    await tx.run("UPDATE posts SET views = (id * 37) % 500 + 20 WHERE status = 'published'");
    await tx.run("INSERT INTO site_records (key, value) VALUES ('demo_seeded', 'true')");
  });
  return true;
}
