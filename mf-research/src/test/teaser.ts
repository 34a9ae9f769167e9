import type { PostTeaser } from '@app/contracts';

/** A teaser as the API sends it for a post above the caller's tier (no content, no excerpt). */
export function makeTeaser(overrides: Partial<PostTeaser> = {}): PostTeaser {
  return {
    id: 500,
    _id: '500',
    slug: 'pro-outlook',
    title: 'Pro outlook',
    summary: 'What the next quarter holds for logistics.',
    status: 'published',
    visibility: 'paid-tier-2',
    content_type: 'market_analysis',
    published_at: '2026-11-21T12:00:00.000Z',
    created_at: '2026-11-20T12:00:00.000Z',
    author: { id: 99, name: 'Analyst' },
    locked: true,
    required_tier: 'premium_pro',
    ...overrides,
  };
}
