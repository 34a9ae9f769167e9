import { useLocation } from '@app/router';
import { useSession } from '@app/session';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SUMMARY, serveSummary, signIn, useAdminApi } from '../test/admin-kit';
import { renderWithNav } from '../test/frame-kit';

useAdminApi();

function Where() {
  return (
    <>
      <p>at {useLocation().pathname}</p>
      <p>profile {useSession().profileStatus}</p>
    </>
  );
}

const ITEMS = [
  ['Members', '/admin/members'],
  ['Leads', '/admin/leads'],
  ['Rollouts', '/admin/rollouts'],
  ['Outbox', '/admin/outbox'],
  ['Company details', '/admin/company'],
];

/** The desktop row (the mobile drawer's nav is hidden while closed). */
const row = () => screen.getByRole('navigation', { name: 'Main' });
const adminButton = () => within(row()).findByRole('button', { name: /^Admin/ });

describe('Admin menu', () => {
  it('shows administrators an Admin button whose list holds the five admin screens', async () => {
    signIn(['admin']);
    serveSummary();
    renderWithNav('/about', <Where />);
    const button = await adminButton();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(within(row()).queryByRole('link', { name: 'Rollouts' })).not.toBeInTheDocument();
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const list = document.getElementById(button.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(list).toBeVisible();
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual(ITEMS);
    await userEvent.click(within(list).getByRole('link', { name: 'Outbox' }));
    expect(screen.getByText('at /admin/outbox')).toBeInTheDocument();
    expect(list).not.toBeVisible();
  });

  it.each([
    ['a member', ['paid-tier-1']],
    ['a guest', null],
  ])('is not there for %s, and the outbox summary is never asked', async (_who, roles) => {
    const summary = serveSummary();
    if (roles) signIn(roles);
    renderWithNav('/about', <Where />);
    // The roles have arrived (or there are none): whatever the menu would do, it would have done.
    await screen.findByText(roles ? 'profile loaded' : 'profile none');
    expect(within(row()).queryByRole('button', { name: /^Admin/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Rollouts', hidden: true })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /^Admin/, hidden: true })).not.toBeInTheDocument();
    expect(summary.calls).toBe(0);
  });

  it('works from the keyboard: arrows, Home, End; Esc closes and gives focus back', async () => {
    signIn(['admin']);
    serveSummary();
    renderWithNav('/about', <Where />);
    const button = await adminButton();
    button.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Members' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Leads' })).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('link', { name: 'Company details' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Members' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('link', { name: 'Company details' })).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('link', { name: 'Members' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    // Enter opens it too (a button), and Tab leaving the menu closes it.
    await userEvent.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await userEvent.tab({ shift: true });
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on a click outside it', async () => {
    signIn(['admin']);
    serveSummary();
    renderWithNav('/about', <Where />);
    const button = await adminButton();
    await userEvent.click(button);
    await userEvent.click(screen.getByText('at /about'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('is lit as the current section on any /admin/* path, with the screen itself current inside', async () => {
    signIn(['admin']);
    serveSummary();
    renderWithNav('/admin/leads', <Where />);
    const button = await adminButton();
    expect(button).toHaveAttribute('aria-current', 'true');
    await userEvent.click(button);
    expect(screen.getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'page');
    expect(
      within(row())
        .getAllByRole('link', { current: 'page' })
        .map((a) => a.textContent),
    ).toEqual(['Leads']);
  });

  it('is not current elsewhere', async () => {
    signIn(['admin']);
    serveSummary();
    renderWithNav('/contact', <Where />);
    expect(await adminButton()).not.toHaveAttribute('aria-current');
  });

  it('carries a count when mail failed or delivery fails, asking the summary once for both layouts', async () => {
    signIn(['admin']);
    const summary = serveSummary({
      ...SUMMARY,
      counts: { pending: 3, sending: 0, sent: 12, failed: 1 },
      lastError: { at: SUMMARY.lastSentAt! + 1000, error: 'connect ECONNREFUSED 127.0.0.1:2525' },
    });
    renderWithNav('/about', <Where />);
    const button = await within(row()).findByRole('button', { name: 'Admin, 4 mails need attention' });
    await userEvent.click(button);
    expect(screen.getByRole('link', { name: 'Outbox, 4 mails need attention' })).toBeVisible();
    expect(summary.calls).toBe(1);
  });

  it('carries no count while delivery works and nothing failed', async () => {
    signIn(['admin']);
    const summary = serveSummary();
    renderWithNav('/about', <Where />);
    await waitFor(() => expect(summary.calls).toBe(1));
    expect(await adminButton()).toHaveAccessibleName('Admin');
  });

  it('is a labelled group of the same five links in the mobile menu', async () => {
    signIn(['admin']);
    serveSummary();
    renderWithNav('/about', <Where />);
    await adminButton();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const drawer = screen.getAllByRole('navigation', { name: 'Main' }).find((n) => n.id) as HTMLElement;
    const group = within(drawer).getByRole('group', { name: 'Admin' });
    expect(
      within(group)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(ITEMS.map(([l]) => l));
    await userEvent.click(within(group).getByRole('link', { name: 'Members' }));
    expect(screen.getByText('at /admin/members')).toBeInTheDocument();
    expect(drawer).not.toBeVisible();
  });
});
