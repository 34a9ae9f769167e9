import { SURVEY_COMPLETED_KEY } from '@app/contracts';
import { useShellActions } from '@app/shell-actions';
import { Badge, Button, Card, gridStyles, LockIcon, MailIcon } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useSyncExternalStore } from 'react';
import { HomeSection } from './home-section';

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
export const LOCKED_LABEL = 'Premium · Locked';
export const ON_ITS_WAY_LABEL = 'Premium · On its way';
const LOCKED_INTRO =
  'Complete our five-minute market assessment to unlock these reports and a free consultation with an analyst.';
export const ON_ITS_WAY_INTRO =
  'Thank you for completing the market assessment: these reports are on their way to your inbox.';

function completedInThisBrowser(): boolean {
  try {
    return window.localStorage.getItem(SURVEY_COMPLETED_KEY) !== null;
  } catch {
    return false; // storage blocked: nothing was remembered
  }
}

// mf-survey announces a completion with a 'storage' event in this tab too, so the cards change as the
// survey closes, without a reload (and when another tab completes it).
function subscribe(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SURVEY_COMPLETED_KEY || event.key === null) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/**
 * SPEC §2: three locked Premium Risk Assessment cards; unlocking asks the shell to open the survey. Once
 * this browser has completed the survey they say the reports are on their way instead.
 */
export function PremiumAssessments() {
  const { openSurvey } = useShellActions();
  const completed = useSyncExternalStore(subscribe, completedInThisBrowser, () => false);
  return (
    <HomeSection
      id="premium"
      title="Premium Risk Assessments"
      intro={completed ? ON_ITS_WAY_INTRO : LOCKED_INTRO}
    >
      <div css={gridStyles('280px')}>
        {PREMIUM_ASSESSMENTS.map((item) => (
          <Card key={item.id} aria-labelledby={`premium-${item.id}`}>
            <Badge tone={completed ? 'success' : 'warning'} css={css`align-self: flex-start;`}>
              {completed ? <MailIcon size={14} /> : <LockIcon size={14} />}
              {completed ? ON_ITS_WAY_LABEL : LOCKED_LABEL}
            </Badge>
            <h3
              id={`premium-${item.id}`}
              css={(t: Theme) => css`margin: ${t.space(1)} 0 0; font-size: 1.15rem;`}
            >
              {item.title}
            </h3>
            <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted}; flex: 1;`}>{item.text}</p>
            {!completed && (
              <Button
                onClick={openSurvey}
                aria-describedby={`premium-${item.id}`}
                css={(t: Theme) => css`margin-top: ${t.space(2)}; align-self: flex-start;`}
              >
                {UNLOCK_LABEL}
              </Button>
            )}
          </Card>
        ))}
      </div>
    </HomeSection>
  );
}
