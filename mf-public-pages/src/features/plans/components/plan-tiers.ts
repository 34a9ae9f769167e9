import { ACCESS_LEVEL_TEXT, TIERS, type Tier } from '@app/contracts';

/**
 * The plans, built from the tiers the About page describes ("Guests read our public research. Free members
 * see members-only reports and publish their own research. Premium and Premium Pro members unlock our
 * in-depth assessments, sector deep dives and early warnings.") and SPEC §6's access table.
 */
export interface PlanTier {
  tier: Exclude<Tier, 'admin'>;
  name: string;
  price: string;
  pitch: string;
  features: string[];
}

export const PLAN_TIERS: readonly PlanTier[] = [
  {
    tier: 'guest',
    name: TIERS.labels.guest,
    price: 'No account needed',
    pitch: 'Look around before you decide.',
    features: [ACCESS_LEVEL_TEXT.guest, 'Public dashboards', 'The free market assessment'],
  },
  {
    tier: 'basic',
    name: TIERS.labels.basic,
    price: 'Free',
    pitch: 'For leaders who want more than the headlines.',
    features: [
      ACCESS_LEVEL_TEXT.basic,
      'Publish your own research',
      'Like and discuss research with other members',
    ],
  },
  {
    tier: 'premium',
    name: TIERS.labels.premium,
    price: 'On request',
    pitch: 'For businesses that act on intelligence every month.',
    features: [ACCESS_LEVEL_TEXT.premium, 'In-depth risk assessments', 'Sector deep dives'],
  },
  {
    tier: 'premium_pro',
    name: TIERS.labels.premium_pro,
    price: 'On request',
    pitch: 'For businesses that cannot afford to be surprised.',
    features: [ACCESS_LEVEL_TEXT.premium_pro, 'Everything in Premium', 'Early warnings from our analysts'],
  },
];

/** How an upgrade happens today: through the assessment and a conversation, not a checkout. */
export const UPGRADE_STEPS = [
  {
    title: 'Take the free assessment',
    text: 'Five minutes about your company, your challenges and your goals.',
  },
  {
    title: 'Talk to an analyst',
    text: 'A free consultation on your results, and the plan that fits what you need to watch.',
  },
  {
    title: 'Read what matters to you',
    text: 'We activate your plan, and the research above your current tier opens for you.',
  },
] as const;

export const PLANS_TEXT = {
  title: 'Plans',
  heading: 'Plans for every stage of your business',
  intro:
    'Start free and read more as your needs grow. Premium plans are tailored to your business: the free market assessment shows which one fits.',
  currentPlan: 'Your plan',
  assessment: 'Start Free Assessment',
  contact: 'Contact us',
  signUp: 'Sign Up Free',
  browse: 'Browse Research',
} as const;
