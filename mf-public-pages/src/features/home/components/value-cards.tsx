import { AlertIcon, ArrowRightIcon, Card, TargetIcon } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { balancedGridStyles } from '../../../lib/balanced-grid';
import { HomeSection } from './home-section';

export const VALUE_CARDS = [
  {
    title: 'Identify Risk',
    Icon: AlertIcon,
    text: 'Supply chain shocks, cyber threats, regulation and shifting demand: we track what can hurt a business of your size and flag it before it becomes a crisis.',
  },
  {
    title: 'Spot Opportunities',
    Icon: TargetIcon,
    text: 'Market analyses, competitor moves and funding trends show where your company can grow, and which openings your larger rivals are too slow to take.',
  },
  {
    title: 'Deliver Action',
    Icon: ArrowRightIcon,
    text: 'Every report ends in concrete next steps, ranked by impact and effort, so your leadership team can decide on Monday morning rather than next quarter.',
  },
] as const;

export function ValueCards() {
  return (
    <HomeSection
      id="value"
      title="Intelligence built for growing businesses"
      intro="Enterprise-grade insight without an enterprise research budget."
    >
      <div css={balancedGridStyles(VALUE_CARDS.length, 260)}>
        {VALUE_CARDS.map((card) => (
          <Card key={card.title}>
            {/* Decorative: the heading next to it says what the card is about. */}
            <span
              css={(t: Theme) => css`
                display: inline-grid;
                place-items: center;
                width: 44px;
                height: 44px;
                border-radius: ${t.radius.md};
                background: ${t.color.surfaceAlt};
                color: ${t.color.primary};
              `}
            >
              <card.Icon size={24} strokeWidth={2} aria-hidden="true" />
            </span>
            <h3 css={(t: Theme) => css`margin: ${t.space(2)} 0 0; font-size: ${t.font.h3};`}>{card.title}</h3>
            <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted};`}>{card.text}</p>
          </Card>
        ))}
      </div>
    </HomeSection>
  );
}
