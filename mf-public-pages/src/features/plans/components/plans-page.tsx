import { Link } from '@app/router';
import { useSession } from '@app/session';
import { useShellActions } from '@app/shell-actions';
import {
  Badge,
  Button,
  buttonStyles,
  Card,
  CheckIcon,
  Container,
  usePageTitle,
  VisuallyHidden,
} from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { balancedGridStyles } from '../../../lib/balanced-grid';
import { bandSurface, muted } from '../../../lib/styles';
import { PLAN_TIERS, type PlanTier, PLANS_TEXT as T, UPGRADE_STEPS } from './plan-tiers';

const featureListCss = (t: Theme) => css`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: ${t.space(2)};
  align-content: start; /* the list fills the card's height; its rows stay together at the top */
  flex: 1;
  li { display: flex; gap: ${t.space(2)}; align-items: flex-start; }
  svg { flex: none; margin-top: 3px; color: ${t.color.success}; }
`;

function PlanCard({ plan, current, isGuest }: { plan: PlanTier; current: boolean; isGuest: boolean }) {
  const headingId = `plan-${plan.tier}`;
  const paid = plan.tier === 'premium' || plan.tier === 'premium_pro';
  return (
    <Card
      aria-labelledby={headingId}
      css={(t: Theme) =>
        current ? css`border-color: ${t.color.primary}; box-shadow: 0 0 0 1px ${t.color.primary};` : undefined
      }
    >
      <div css={css`display: flex; justify-content: space-between; gap: 8px; align-items: center;`}>
        <h2 id={headingId} css={(t: Theme) => css`margin: 0; font-size: ${t.font.h3};`}>
          {plan.name}
        </h2>
        {current && <Badge tone="success">{T.currentPlan}</Badge>}
      </div>
      <p css={css`margin: 0; font-size: 1.2rem; font-weight: 700;`}>{plan.price}</p>
      <p css={(t: Theme) => css`${muted(t)}; margin: 0;`}>{plan.pitch}</p>
      <ul css={featureListCss}>
        {plan.features.map((feature) => (
          <li key={feature}>
            <CheckIcon size={16} />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <div css={(t: Theme) => css`margin-top: ${t.space(2)};`}>
        {plan.tier === 'basic' && isGuest && (
          <Link to="/register" css={buttonStyles('primary', 'sm')}>
            {T.signUp}
          </Link>
        )}
        {plan.tier === 'guest' && (
          <Link to="/research-center" css={buttonStyles('secondary', 'sm')}>
            {T.browse}
          </Link>
        )}
        {paid && !current && (
          <Link to="/contact" css={buttonStyles('secondary', 'sm')}>
            {T.contact} <VisuallyHidden>about {plan.name}</VisuallyHidden>
          </Link>
        )}
      </div>
    </Card>
  );
}

/**
 * /plans: where Upgrade leads. The tiers as About describes them, the visitor's own marked, and the way up,
 * which today is the free market assessment (the shell opens the survey) and a conversation (Contact).
 */
export function PlansPage() {
  usePageTitle(T.title);
  const { openSurvey } = useShellActions();
  const session = useSession();
  return (
    <Container>
      <h1 css={css`margin-top: 0;`}>{T.heading}</h1>
      <p css={(t: Theme) => css`${muted(t)}; font-size: 1.15rem; max-width: 65ch;`}>{T.intro}</p>
      <div
        css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)}; margin: ${t.space(5)} 0;`}
      >
        <Button onClick={openSurvey}>{T.assessment}</Button>
        <Link to="/contact" css={buttonStyles('secondary')}>
          {T.contact}
        </Link>
      </div>

      <section aria-label="Plans" css={(t: Theme) => css`margin-top: ${t.space(8)};`}>
        <div css={balancedGridStyles(PLAN_TIERS.length, 230)}>
          {PLAN_TIERS.map((plan) => (
            <PlanCard
              key={plan.tier}
              plan={plan}
              current={session.tier === plan.tier}
              isGuest={!session.isLoggedIn}
            />
          ))}
        </div>
      </section>

      <section
        aria-labelledby="plans-upgrade"
        css={(t: Theme) => css`
          margin-top: ${t.space(12)};
          padding: ${t.space(8)};
          ${bandSurface(t)};
          @media (max-width: 600px) { padding: ${t.space(5)}; }
        `}
      >
        <h2 id="plans-upgrade" css={css`margin-top: 0;`}>
          How to upgrade
        </h2>
        <ol
          css={(t: Theme) => css`
            ${balancedGridStyles(UPGRADE_STEPS.length, 220)(t)};
            padding: 0;
            margin: 0 0 ${t.space(6)};
            list-style: none;
            counter-reset: step;
            li { counter-increment: step; }
            h3::before { content: counter(step) '. '; color: ${t.color.primary}; }
          `}
        >
          {UPGRADE_STEPS.map((step) => (
            <li key={step.title}>
              <h3 css={css`margin: 0 0 4px; font-size: 1.05rem;`}>{step.title}</h3>
              <p css={(t: Theme) => css`${muted(t)}; margin: 0;`}>{step.text}</p>
            </li>
          ))}
        </ol>
        <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)};`}>
          <Button onClick={openSurvey}>{T.assessment}</Button>
          <Link to="/contact" css={buttonStyles('ghost')}>
            {T.contact}
          </Link>
        </div>
      </section>
    </Container>
  );
}
