import { exploreVisibilities } from '@app/contracts';
import { buildExploreRequest, NO_FILTERS } from './research-api';

const request = (roles: string[] | null, filters = NO_FILTERS) =>
  buildExploreRequest(exploreVisibilities(roles), filters);

describe('the Explore request (SPEC §6)', () => {
  it.each([
    ['a guest', null, ['public']],
    ['a basic member', [], ['public']],
    ['a premium member', ['paid-tier-1'], ['public', 'members_only']],
    ['a premium pro member', ['paid-tier-2'], ['public', 'members_only', 'paid-tier-1']],
    ['an administrator', ['admin'], ['public', 'members_only', 'paid-tier-1', 'paid-tier-2', 'private']],
  ])('asks %s for published posts of exactly these visibilities', (_who, roles, expected) => {
    const { path, params } = request(roles);
    expect(path).toBe('/api/posts');
    expect(params.get('status')).toBe('published');
    expect(params.getAll('visibility')).toEqual(expected);
    // Posts above the tier come as teasers, on top of the §6 list.
    expect(params.get('teasers')).toBe('1');
  });

  it('sends a search to /api/posts/search without a visibility list', () => {
    const { path, params } = request(['paid-tier-1'], { ...NO_FILTERS, q: '  supply chain ' });
    expect(path).toBe('/api/posts/search');
    expect(params.get('q')).toBe('supply chain');
    expect(params.getAll('visibility')).toEqual([]);
    expect(params.get('teasers')).toBe('1');
  });

  it('sends tag, category and content type filters and lets the server apply the access table', () => {
    const { path, params } = request(null, { q: '', tag: 'cyber', category: 'Europe', contentType: 'osint' });
    expect(path).toBe('/api/posts');
    expect(params.get('status')).toBe('published');
    expect(params.get('tag')).toBe('cyber');
    expect(params.get('category')).toBe('Europe');
    expect(params.get('content_type')).toBe('osint');
    expect(params.getAll('visibility')).toEqual([]);
  });
});
