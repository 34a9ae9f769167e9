import { useShellActions } from '@app/shell-actions';
import { Badge, Button, Card, gridStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { SectionHeading, sectionCss } from './section-heading';

export const PREMIUM_ASSESSMENTS = [
  {
    id: 'supply-chain',
    title: 'Supply Chain Resilience Assessment',
    text: 'Which suppliers, regions and routes put your deliveries at risk, with a resilience score against companies of your size in your industry.',
  },
  {
    id: 'cyber',
    title: 'Cyber Risk Exposure Report',
    text: 'How exposed your business is to the attacks now hitting small and mid-sized firms, and the five safeguards that cut that risk the most.',
  },
  {
    id: 'opportunity',
    title: 'Market Opportunity Scorecard',
    text: 'The markets, customer segments and partnerships with the best growth potential for you over the next twelve months, ranked by effort and return.',
  },
] as const;

export const UNLOCK_LABEL = 'Unlock with Free Assessment';

function LockIcon() {
  return (
    <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor">
      <rect x="4" y="11" width="16" height="10" rx="2" strokeWidth="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" strokeWidth="2" />
    </svg>
  );
}

/** SPEC §2: three locked Premium Risk Assessment cards; unlocking asks the shell to open the survey. */
export function PremiumAssessments() {
  const { openSurvey } = useShellActions();
  return (
    <section aria-labelledby="home-premium-title" css={sectionCss}>
      <SectionHeading
        id="home-premium-title"
        title="Premium Risk Assessments"
        intro="Complete our five-minute market assessment to unlock these reports and a free consultation with an analyst."
      />
      <div css={gridStyles('280px')}>
        {PREMIUM_ASSESSMENTS.map((item) => (
          <Card key={item.id} aria-labelledby={`premium-${item.id}`}>
            <Badge tone="warning" css={css`align-self: flex-start;`}>
              <LockIcon /> Premium · Locked
            </Badge>
            <h3
              id={`premium-${item.id}`}
              css={(t: Theme) => css`margin: ${t.space(1)} 0 0; font-size: 1.15rem;`}
            >
              {item.title}
            </h3>
            <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted}; flex: 1;`}>{item.text}</p>
            <Button
              onClick={openSurvey}
              aria-describedby={`premium-${item.id}`}
              css={(t: Theme) => css`margin-top: ${t.space(2)}; align-self: flex-start;`}
            >
              {UNLOCK_LABEL}
            </Button>
          </Card>
        ))}
      </div>
    </section>
  );
}
