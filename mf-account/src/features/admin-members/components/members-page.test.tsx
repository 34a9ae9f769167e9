import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, server } from '../../../test/server';
import { MEMBERS_TEXTS as T } from '../texts';
import { ADMIN_PROFILE, member, mockMembersApi, renderMembers } from './members-test-kit';

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const last = <T,>(list: T[]) => list[list.length - 1]!;

describe('MembersPage', () => {
  it('lists pending registrations first, with the address they came from', async () => {
    const calls = mockMembersApi();
    renderMembers();
    expect(await screen.findByRole('heading', { level: 1, name: T.title })).toBeInTheDocument();
    await screen.findByRole('table');
    const [first, second, third] = rows();
    expect(within(first!).getByRole('rowheader')).toHaveTextContent('newbie');
    expect(first).toHaveTextContent('Nina New');
    expect(first).toHaveTextContent('newbie@example.com');
    expect(first).toHaveTextContent('Nov 25, 2026');
    expect(first).toHaveTextContent('203.0.113.7');
    expect(first).toHaveTextContent(T.pending);
    expect(second).toHaveTextContent('198.51.100.2');
    expect(third).toHaveTextContent(T.active);
    expect(third).toHaveTextContent('Premium');
    expect(third).toHaveTextContent(T.unknownAddress);
    expect(screen.getByText(T.pendingCount(2))).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Pending 2/ })).toBeInTheDocument();
    expect(Object.fromEntries(calls.lists[0]!)).toEqual({ status: 'all', page: '1', limit: '25' });
  });

  it('sends the search once typing pauses, keeps it in the address and starts at page 1', async () => {
    const calls = mockMembersApi();
    const { user } = renderMembers('/admin/members?status=active&page=3');
    await screen.findByRole('table');
    expect(Object.fromEntries(last(calls.lists))).toMatchObject({ status: 'active', page: '3' });
    await user.type(screen.getByRole('searchbox', { name: T.search }), 'jane@exa');
    await waitFor(() =>
      expect(screen.getByTestId('search')).toHaveTextContent('?q=jane%40exa&status=active'),
    );
    await waitFor(() => expect(last(calls.lists).get('q')).toBe('jane@exa'));
    expect(last(calls.lists).get('page')).toBe('1');
    // One request for the pause, not one per keystroke.
    expect(calls.lists.filter((p) => p.has('q'))).toHaveLength(1);
  });

  it('searches at once on Enter, and reads the search back from the address', async () => {
    const calls = mockMembersApi();
    const { user } = renderMembers('/admin/members?q=nina');
    const box = await screen.findByRole('searchbox', { name: T.search });
    expect(box).toHaveValue('nina');
    await waitFor(() => expect(calls.lists[0]?.get('q')).toBe('nina'));
    await user.clear(box);
    await user.type(box, 'Doe{Enter}');
    expect(screen.getByTestId('search')).toHaveTextContent('?q=Doe');
  });

  it('switches the filter with the tabs', async () => {
    const calls = mockMembersApi();
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('tab', { name: /Pending/ }));
    expect(screen.getByTestId('search')).toHaveTextContent('?status=pending');
    await waitFor(() => expect(last(calls.lists).get('status')).toBe('pending'));
    expect(screen.getByRole('tab', { name: /Pending/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('pages through 10,000 members on the server, 25 at a time', async () => {
    const items = Array.from({ length: 25 }, (_, i) => member(100 + i));
    const calls = mockMembersApi({ items, total: 10_000, pending: 0 });
    const { user } = renderMembers();
    expect(await screen.findByText('Page 1 of 400 · 10,000 members')).toBeInTheDocument();
    expect(rows()).toHaveLength(25);
    expect(screen.getByRole('button', { name: T.previous })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: T.next }));
    expect(await screen.findByText('Page 2 of 400 · 10,000 members')).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('?page=2');
    expect(last(calls.lists).get('page')).toBe('2');
  });

  it('says when nobody waits, and when nothing matches', async () => {
    mockMembersApi({ items: [], total: 0, pending: 0 });
    renderMembers('/admin/members?status=pending');
    expect(await screen.findByText(T.emptyPending)).toBeInTheDocument();
    expect(screen.getByText(T.pendingCount(0))).toBeInTheDocument();
  });

  it("shows the API's error with Retry, and loads again", async () => {
    mockMembersApi();
    let failures = 1;
    server.use(
      http.get(`${API}${ADMIN_PATHS.members}`, () =>
        failures-- > 0 ? HttpResponse.json({ error: 'Database is busy' }, { status: 503 }) : undefined,
      ),
    );
    const { user } = renderMembers();
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is busy');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('shows "Administrators only" to a member, and asks the API nothing', async () => {
    // Any call to the members API would fail the test (msw: onUnhandledRequest 'error').
    localStorage.setItem('token', 'member-token');
    server.use(
      http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json({ ...ADMIN_PROFILE, roles: [] })),
    );
    renderMembers();
    expect(await screen.findByRole('alert')).toHaveTextContent(T.adminOnly);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows "Administrators only" when the API answers 403', async () => {
    mockMembersApi();
    server.use(
      http.get(`${API}${ADMIN_PATHS.members}`, () =>
        HttpResponse.json({ error: 'Administrators only' }, { status: 403 }),
      ),
    );
    renderMembers();
    expect(await screen.findByText(T.adminOnlyText, { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
