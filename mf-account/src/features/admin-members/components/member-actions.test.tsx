import type { AdminMember } from '@app/contracts/admin-members';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, server } from '../../../test/server';
import { MEMBERS_TEXTS as T } from '../texts';
import { ACTIVE, mockMembersApi, PENDING_A, PENDING_B, renderMembers } from './members-test-kit';

/** Records the bodies posted to a path and answers with `reply`. */
function onPost(path: string, reply: (body: { ids?: number[]; role?: string }) => unknown, status = 200) {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${API}${path}`, async ({ request }) => {
      const body = (await request.json()) as { ids?: number[]; role?: string };
      bodies.push(body);
      return HttpResponse.json(reply(body) as Record<string, unknown>, { status });
    }),
  );
  return bodies;
}

describe('member actions', () => {
  it('activates the selected members, says how many, names the skipped ones and reloads', async () => {
    const calls = mockMembersApi();
    const posted = onPost(ADMIN_PATHS.membersActivate, ({ ids = [] }) => ({
      done: ids.filter((id) => id !== ACTIVE.id),
      skipped: [{ id: ACTIVE.id, reason: 'already active' }],
    }));
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('checkbox', { name: T.selectAll }));
    expect(screen.getByRole('checkbox', { name: T.selectOne('jane') })).toBeChecked();
    await user.click(screen.getByRole('button', { name: T.activateSelected }));
    const notice = await screen.findByText(T.activated(2));
    expect(posted).toEqual([{ ids: [PENDING_A.id, PENDING_B.id, ACTIVE.id] }]);
    expect(notice.closest('[role="status"]')).toHaveTextContent(/Skipped 1:\s*jane: already active/);
    await waitFor(() => expect(calls.lists).toHaveLength(2));
    // The selection is gone with the rows it named; focus waits on the result, not on a vanished row.
    expect(screen.getByRole('checkbox', { name: T.selectAll })).not.toBeChecked();
    await waitFor(() => expect(notice.closest('[tabindex="-1"]')).toHaveFocus());
  });

  it('activates one member from its row', async () => {
    mockMembersApi();
    const posted = onPost(ADMIN_PATHS.membersActivate, ({ ids = [] }) => ({ done: ids, skipped: [] }));
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Activate newbie' }));
    expect(await screen.findByText(T.activated(1))).toBeInTheDocument();
    expect(posted).toEqual([{ ids: [PENDING_A.id] }]);
  });

  it('asks before rejecting, says it deletes the registrations, and sends nothing on Cancel', async () => {
    mockMembersApi();
    const posted = onPost(ADMIN_PATHS.membersReject, ({ ids = [] }) => ({ done: ids, skipped: [] }));
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('checkbox', { name: T.selectOne('newbie') }));
    await user.click(screen.getByRole('checkbox', { name: T.selectOne('waiting') }));
    await user.click(screen.getByRole('button', { name: T.rejectSelected }));
    const dialog = screen.getByRole('dialog', { name: T.rejectTitle(2) });
    expect(dialog).toHaveTextContent('deletes these registrations');
    expect(dialog).toHaveTextContent('newbie (newbie@example.com)');
    await user.click(within(dialog).getByRole('button', { name: T.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Reject waiting' }));
    await user.click(
      within(screen.getByRole('dialog', { name: T.rejectTitle(1) })).getByRole('button', {
        name: T.rejectConfirm,
      }),
    );
    expect(await screen.findByText(T.rejected(1))).toBeInTheDocument();
    expect(posted).toEqual([{ ids: [PENDING_B.id] }]);
  });

  it("shows the API's error when an action fails", async () => {
    mockMembersApi();
    onPost(ADMIN_PATHS.membersActivate, () => ({ error: 'At most 100 members at once' }), 400);
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Activate newbie' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('At most 100 members at once');
  });

  it('grants and revokes tiers from the details, shows the result and the audit, and keeps focus', async () => {
    const calls = mockMembersApi({
      audit: [
        {
          id: 1,
          at: Date.parse('2026-11-24T15:30:00Z'),
          actor: 'boss',
          action: 'member.grant',
          target: `user:${ACTIVE.id}`,
          detail: { role: 'paid-tier-1' },
        },
      ],
    });
    let current: AdminMember = ACTIVE;
    const granted = onPost(ADMIN_PATHS.memberRoles(ACTIVE.id), ({ role = '' }) => {
      current = { ...current, roles: [...current.roles, role] };
      return current;
    });
    const revoked: string[] = [];
    server.use(
      http.delete(`${API}${ADMIN_PATHS.memberRoles(ACTIVE.id)}/:role`, ({ params }) => {
        revoked.push(String(params.role));
        current = { ...current, roles: current.roles.filter((r) => r !== params.role) };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Details jane' }));
    const panel = screen.getByRole('region', { name: `${T.tiersHeading}: jane` });
    const audit = screen.getByRole('region', { name: `${T.auditHeading}: jane` });
    expect(await within(audit).findByText('Granted Premium')).toBeInTheDocument();
    expect(within(audit).getByText('boss')).toBeInTheDocument();
    expect(calls.audits[0]?.get('target')).toBe(`user:${ACTIVE.id}`);

    const grantPro = within(panel).getByRole('button', { name: 'Grant Premium Pro: jane' });
    await user.click(grantPro);
    expect(await within(panel).findByText(T.granted('Premium Pro', 'jane'))).toBeInTheDocument();
    expect(granted).toEqual([{ role: 'paid-tier-2' }]);
    expect(grantPro).toHaveAccessibleName('Revoke Premium Pro: jane');
    expect(grantPro).toHaveFocus();
    const row = screen.getByRole('row', { name: /^Select jane/ });
    expect(within(row).getByText('Premium Pro')).toBeInTheDocument();
    // The audit is asked again, so the change just made shows there.
    await waitFor(() => expect(calls.audits).toHaveLength(2));

    await user.click(within(panel).getByRole('button', { name: 'Revoke Premium: jane' }));
    expect(await within(panel).findByText(T.revoked('Premium', 'jane'))).toBeInTheDocument();
    expect(revoked).toEqual(['paid-tier-1']);
  });

  it("shows the API's error when a tier change is refused", async () => {
    mockMembersApi();
    onPost(ADMIN_PATHS.memberRoles(ACTIVE.id), () => ({ error: 'You cannot change your own roles' }), 400);
    const { user } = renderMembers();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Details jane' }));
    await user.click(screen.getByRole('button', { name: 'Grant Administrator: jane' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot change your own roles');
  });
});
