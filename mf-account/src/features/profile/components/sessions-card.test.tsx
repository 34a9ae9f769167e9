import { writeToken } from '@app/api-client';
import { API_PATHS, MESSAGES } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { failWith, loaded, mockApi, renderProfile } from './profile-test-kit';

const S = MESSAGES.sessions;

beforeEach(() => writeToken('valid-token'));

/** Issue 46: the profile lists where the member is signed in and ends sessions. */
describe("ProfilePage: where you're signed in", () => {
  const card = () => screen.getByRole('article', { name: S.title });

  it('lists each session with its device and last use, this device marked and not offered to sign out', async () => {
    mockApi();
    renderProfile();
    await loaded();
    const items = await within(card()).findAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Firefox on Linux This device ?Last active: Nov 28, 2026$/),
      expect.stringMatching(/^Chrome on Android ?Last active: Nov 27, 2026 ?Sign out$/),
      expect.stringMatching(/^Unknown device ?Last active: Nov 25, 2026 ?Sign out$/),
    ]);
    expect(within(items[0]!).queryByRole('button')).toBeNull();
  });

  it('signs one session out, then every other one, saying so each time', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(await within(card()).findByRole('button', { name: `${S.signOut}: Chrome on Android` }));
    expect(await within(card()).findByText(S.ended)).toBeInTheDocument();
    await waitFor(() => expect(within(card()).getAllByRole('listitem')).toHaveLength(2));
    await user.click(within(card()).getByRole('button', { name: S.signOutOthers }));
    expect(await within(card()).findByText(S.endedOthers)).toBeInTheDocument();
    await waitFor(() => expect(within(card()).getAllByRole('listitem')).toHaveLength(1));
    expect(within(card()).queryByRole('button', { name: S.signOutOthers })).toBeNull();
    expect(calls.endedSessions).toEqual(['b2', 'others']);
  });

  it('says so when the list cannot be loaded, and the rest of the profile still works', async () => {
    mockApi();
    failWith('get', API_PATHS.sessions, 500);
    renderProfile();
    await loaded();
    expect(await within(card()).findByRole('alert')).toHaveTextContent(S.loadFailed);
  });
});
