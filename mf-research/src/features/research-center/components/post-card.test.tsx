import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { loginAs, makePost } from '../../../test/server';
import { makeTeaser } from '../../../test/teaser';
import { PostCard } from './post-card';

describe('PostCard — a teaser (a post above the visitor’s tier)', () => {
  it('shows the badges, title, summary and the tier that opens it, with Log In and Sign Up for a guest', () => {
    renderWithProviders(<PostCard post={makeTeaser()} variant="explore" />);
    const card = screen.getByRole('article', { name: 'Pro outlook' });
    expect(within(card).getByText('Premium Pro')).toBeInTheDocument();
    expect(within(card).getByText('Market Analysis')).toBeInTheDocument();
    expect(within(card).getByRole('heading', { level: 3, name: 'Pro outlook' })).toBeInTheDocument();
    expect(within(card).getByText('What the next quarter holds for logistics.')).toBeInTheDocument();
    expect(within(card).getByText('This research requires a Premium Pro subscription.')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Log In to read Pro outlook' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(within(card).getByRole('link', { name: 'Sign Up to read Pro outlook' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(within(card).queryByRole('link', { name: /Read|Upgrade/ })).not.toBeInTheDocument();
    // The lock is an SVG icon, not an emoji that renders as a box without an emoji font.
    expect(card.querySelector('h3 svg')).not.toBeNull();
    expect(card.textContent).not.toContain('🔒');
  });

  it('offers a member Upgrade, which leads to the Plans page', async () => {
    loginAs([]);
    renderWithProviders(
      <PostCard
        post={makeTeaser({ visibility: 'paid-tier-1', required_tier: 'premium' })}
        variant="explore"
      />,
    );
    const upgrade = await screen.findByRole('link', { name: 'Upgrade to read Pro outlook' });
    expect(upgrade).toHaveAttribute('href', '/plans');
    expect(screen.getByText('This research requires a Premium subscription.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Log In|Sign Up/ })).not.toBeInTheDocument();
  });

  it('tells a guest a members-only post opens with a free account', () => {
    renderWithProviders(
      <PostCard
        post={makeTeaser({ visibility: 'members_only', required_tier: 'basic', summary: '' })}
        variant="explore"
      />,
    );
    const card = screen.getByRole('article', { name: 'Pro outlook' });
    expect(within(card).getByText('Members')).toBeInTheDocument();
    expect(
      within(card).getByText('This research is for members. Log in or sign up free to read it.'),
    ).toBeInTheDocument();
  });

  it('a full post keeps its excerpt and Read link', () => {
    renderWithProviders(
      <PostCard post={makePost({ id: 3, title: 'Open', excerpt: 'Short' })} variant="explore" />,
    );
    const card = screen.getByRole('article', { name: 'Open' });
    expect(within(card).getByText('Short')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Read Open' })).toHaveAttribute('href', '/post/3');
    expect(card.querySelector('h3 svg')).toBeNull();
  });
});
