import { screen } from '@testing-library/react';
import { renderPage } from '../../../test/render';
import { HERO_TITLE, Hero } from './hero';

describe('Hero', () => {
  it('adds a decorative product picture with a reserved size, hidden from assistive technology', () => {
    const { container } = renderPage(<Hero />);
    expect(screen.getByRole('heading', { level: 1, name: HERO_TITLE })).toBeInTheDocument();
    const svg = container.querySelector('svg[viewBox="0 0 480 340"]');
    expect(svg).not.toBeNull();
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    // The box keeps the picture's proportions before it paints, so nothing below it moves.
    expect(getComputedStyle(svg!.parentElement!).aspectRatio.replace(/ /g, '')).toBe('480/340');
  });
});
