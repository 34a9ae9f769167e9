/** A profile as GET /api/profile answers it, with the roles a test needs. */
export const profile = (roles: string[]) => ({
  username: 'jane',
  name: { first: 'Jane', last: 'Doe' },
  email: 'jane@example.com',
  address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
  roles,
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  last_login: null,
});
