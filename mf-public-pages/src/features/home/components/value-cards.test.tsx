import { screen } from '@testing-library/react';
import { gridColumnsByMedia } from '../../../test/css-rules';
import { renderPage } from '../../../test/render';
import { VALUE_CARDS, ValueCards } from './value-cards';

describe('ValueCards', () => {
  it('draws each card an SVG icon, hidden from screen readers, and no text glyph', () => {
    const { container } = renderPage(<ValueCards />);
    for (const card of VALUE_CARDS) {
      const article = screen.getByRole('heading', { name: card.title }).closest('article')!;
      const icon = article.querySelector('svg');
      expect(icon).not.toBeNull();
      expect(icon).toHaveAttribute('aria-hidden', 'true');
    }
    expect(container.textContent).not.toMatch(/[⚠◎➜]/u);
  });

  it('puts the three cards 1 or 3 across', () => {
    renderPage(<ValueCards />);
    const grid = screen.getByRole('heading', { name: VALUE_CARDS[0].title }).closest('article')!
      .parentElement!;
    const counts = Object.values(gridColumnsByMedia(grid)).map((v) => /repeat\((\d+)/.exec(v)?.[1] ?? '1');
    expect(counts.sort()).toEqual(['1', '3']);
  });
});
