import { API_PATHS } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderApp } from '../../../test/render';
import { loginAs, makePost, server, url } from '../../../test/server';

const optionNames = () =>
  within(screen.getByRole('combobox', { name: 'Visibility' }))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('Visibility choices per role (decision 0011)', () => {
  it.each([
    [[], ['Public', 'Members'], 'Basic Member accounts publish to Public or Members.'],
    [
      ['paid-tier-1'],
      ['Public', 'Members', 'Premium'],
      'Premium accounts publish to Public, Members or Premium.',
    ],
    [
      ['paid-tier-2'],
      ['Public', 'Members', 'Premium', 'Premium Pro'],
      'Premium Pro accounts publish to Public, Members, Premium or Premium Pro.',
    ],
    [
      ['admin'],
      ['Public', 'Members', 'Premium', 'Premium Pro', 'Admin Only'],
      'Administrator accounts publish to Public, Members, Premium, Premium Pro or Admin Only.',
    ],
  ])('roles %j are offered %j', async (roles, expected, hint) => {
    loginAs(roles);
    renderApp('/create-post');
    await screen.findByRole('combobox', { name: 'Visibility' });
    await waitFor(() => expect(optionNames()).toEqual(expected));
    expect(screen.getByRole('combobox', { name: 'Visibility' })).toHaveAccessibleDescription(hint);
  });

  it('keeps the current visibility of a post an administrator moved higher', async () => {
    loginAs([], { id: 7 });
    const post = makePost({ id: 9, visibility: 'paid-tier-2', author: { id: 7, name: 'Me' } });
    server.use(http.get(url(API_PATHS.post(9)), () => HttpResponse.json(post)));
    renderApp('/post/9/edit');
    expect(await screen.findByRole('combobox', { name: 'Visibility' })).toHaveValue('paid-tier-2');
    expect(optionNames()).toEqual(['Public', 'Members', 'Premium Pro']);
  });

  it('shows the API refusal in words and keeps what was typed', async () => {
    loginAs([]);
    server.use(
      http.post(url(API_PATHS.posts), () =>
        HttpResponse.json(
          { error: 'Basic Member accounts cannot publish Members research. Choose Public.' },
          { status: 403 },
        ),
      ),
    );
    const { user } = renderApp('/create-post');
    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Port congestion');
    await user.type(screen.getByRole('textbox', { name: /Content/ }), 'Typed body');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Visibility' }), 'members_only');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(
      await screen.findByText(
        'Basic Member accounts cannot publish Members research. Choose Public. Your changes have not been lost.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Title/ })).toHaveValue('Port congestion');
    expect(screen.getByRole('textbox', { name: /Content/ })).toHaveValue('Typed body');
    expect(screen.getByRole('combobox', { name: 'Visibility' })).toHaveValue('members_only');
    expect(screen.getByTestId('location')).toHaveTextContent('/create-post');
  });

  it('names each editor screen in the browser tab', async () => {
    renderApp('/create-post');
    await waitFor(() =>
      expect(document.title).toBe('Log in to write research | Risk & Opportunity Intelligence'),
    );
    expect(screen.getByRole('heading', { name: 'New Research' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign Up Free' })).toHaveAttribute('href', '/register');
  });

  it('titles the create page for a member', async () => {
    loginAs([]);
    renderApp('/create-post');
    await screen.findByRole('combobox', { name: 'Visibility' });
    await waitFor(() => expect(document.title).toBe('New Research | Risk & Opportunity Intelligence'));
  });
});
