import { API_PATHS, type Post, type Profile } from '@app/contracts';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

/** The API address tests configure; every handler is under it. */
export const API = 'http://api.test';
export const url = (path: string) => `${API}${path}`;

export const server = setupServer();

let nextId = 100;
export function makePost(overrides: Partial<Post> = {}): Post {
  nextId += 1;
  return {
    id: nextId,
    _id: String(nextId),
    title: `Post ${nextId}`,
    summary: '',
    content: 'Body text',
    excerpt: null,
    status: 'published',
    visibility: 'public',
    content_type: 'research_report',
    published_at: '2026-11-21T12:00:00.000Z',
    created_at: '2026-11-20T12:00:00.000Z',
    updated_at: '2026-11-21T12:00:00.000Z',
    views: 0,
    likes: 0,
    liked: false,
    comment_count: 0,
    author: { id: 1, name: 'Ada Lovelace' },
    slug: `post-${nextId}`,
    tags: [],
    categories: [],
    ...overrides,
  };
}

export function makeProfile(roles: string[] = [], overrides: Partial<Profile> = {}): Profile {
  return {
    id: 7,
    username: 'member',
    name: { first: 'Mia', last: 'Member' },
    email: 'mia@example.com',
    pending_email: null,
    address: { street: '1 Main Street', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    roles,
    is_active: true,
    created_at: '2025-03-04T10:00:00.000Z',
    last_login: null,
    ...overrides,
  };
}

/** Logs the test in: a token in storage and a profile with these roles from GET /api/profile. */
export function loginAs(roles: string[] = [], overrides: Partial<Profile> = {}): Profile {
  const profile = makeProfile(roles, overrides);
  localStorage.setItem('token', 'test-token');
  server.use(http.get(url(API_PATHS.profile), () => HttpResponse.json(profile)));
  return profile;
}
