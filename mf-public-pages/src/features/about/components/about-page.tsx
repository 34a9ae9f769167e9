import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { useShellActions } from '@app/shell-actions';
import { Button, buttonStyles, Card, Container, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { balancedGridStyles } from '../../../lib/balanced-grid';
import { bandSurface, muted } from '../../../lib/styles';

const NAME = MESSAGES.app.companyName;

const OFFERINGS = [
  {
    title: 'Research',
    text: 'Research reports, threat intelligence, market analyses, OSINT analyses, case studies and technical reports, written for decision makers rather than specialists. Each one closes with what it means for your business and what to do next.',
  },
  {
    title: 'Dashboards',
    text: 'Curated views of the indicators that move small and mid-sized businesses: input costs, supply chain stress, cyber threat activity, hiring markets and regulatory change, kept current by our analysts.',
  },
  {
    title: 'Market assessment',
    text: 'A five-minute survey about your company, your challenges and your goals. In return you get premium risk assessments matched to your answers and a free consultation with an analyst.',
  },
  {
    title: 'Membership tiers',
    text: 'Guests read our public research. Free members see members-only reports and publish their own research. Premium and Premium Pro members unlock our in-depth assessments, sector deep dives and early warnings.',
  },
] as const;

const PRINCIPLES = [
  {
    title: 'Relevant to your size',
    text: 'Most intelligence is written for corporations with risk departments. We write for the owner, the managing director and the CFO who have an hour a week for it.',
  },
  {
    title: 'Evidence, not alarm',
    text: 'We name our sources, separate facts from judgement and say how confident we are, so you can weigh a warning before you act on it.',
  },
  {
    title: 'Action over information',
    text: 'A report is only useful if it changes a decision. Every piece ends with concrete, prioritised steps.',
  },
] as const;

/** The company and the product, in words a prospective member would look for before signing up. */
export function AboutPage() {
  usePageTitle('About');
  const { openSurvey } = useShellActions();
  return (
    <Container>
      <h1 css={css`margin-top: 0;`}>About {NAME}</h1>
      <p css={(t: Theme) => css`${muted(t)}; font-size: 1.15rem; max-width: 65ch;`}>
        We help leaders of small and mid-sized businesses see the risks heading their way and the
        opportunities their competitors miss, early enough to act on both.
      </p>

      <section
        aria-labelledby="about-story"
        css={(t: Theme) => css`margin-top: ${t.space(10)}; max-width: 75ch;`}
      >
        <h2 id="about-story">Why we exist</h2>
        <p>
          A company with 50 or 500 employees faces the same forces as a multinational: fragile supply chains,
          ransomware, new regulation, volatile demand and a tight market for talent. What it rarely has is a
          strategy team watching those forces full time. Decisions get made on gut feeling and news headlines,
          and threats become visible only once they hurt.
        </p>
        <p>
          {NAME} closes that gap. Our analysts combine open-source intelligence, market data and what we learn
          from the businesses we work with into research that is short, specific and practical. We focus on
          manufacturing, technology, professional services, healthcare, financial services, retail,
          construction and logistics, the industries where most of our members work.
        </p>
      </section>

      <section aria-labelledby="about-offer" css={(t: Theme) => css`margin-top: ${t.space(10)};`}>
        <h2 id="about-offer">What you get</h2>
        <div css={balancedGridStyles(OFFERINGS.length, 220)}>
          {OFFERINGS.map((item) => (
            <Card key={item.title}>
              <h3 css={css`margin: 0; font-size: 1.15rem;`}>{item.title}</h3>
              <p css={(t: Theme) => css`${muted(t)}; margin: 0;`}>{item.text}</p>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="about-principles" css={(t: Theme) => css`margin-top: ${t.space(10)};`}>
        <h2 id="about-principles">How we work</h2>
        <ul
          css={(t: Theme) => css`
            ${balancedGridStyles(PRINCIPLES.length, 240)(t)};
            list-style: none;
            padding: 0;
            margin: 0;
          `}
        >
          {PRINCIPLES.map((item) => (
            <li
              key={item.title}
              css={(t: Theme) => css`border-left: 3px solid ${t.color.accent}; padding-left: ${t.space(4)};`}
            >
              <h3 css={css`margin: 0 0 4px; font-size: 1.05rem;`}>{item.title}</h3>
              <p css={(t: Theme) => css`${muted(t)}; margin: 0;`}>{item.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="about-next"
        css={(t: Theme) => css`
          margin-top: ${t.space(12)};
          padding: ${t.space(8)};
          ${bandSurface(t)};
        `}
      >
        <h2 id="about-next" css={css`margin-top: 0;`}>
          Where to start
        </h2>
        <p css={(t: Theme) => css`${muted(t)}; max-width: 65ch;`}>
          Take the free market assessment to see where your business stands, browse our public research, or
          get in touch and tell us what keeps you up at night.
        </p>
        <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)};`}>
          <Button onClick={openSurvey}>Start Free Assessment</Button>
          <Link to="/research-center" css={buttonStyles('secondary')}>
            Browse Research
          </Link>
          <Link to="/contact" css={buttonStyles('ghost')}>
            Contact us
          </Link>
        </div>
      </section>
    </Container>
  );
}
