import { SURVEY_COMPLETED_KEY } from '@app/contracts';
import { ShellActionsProvider } from '@app/shell-actions';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render';
import {
  LOCKED_LABEL,
  ON_ITS_WAY_INTRO,
  ON_ITS_WAY_LABEL,
  PREMIUM_ASSESSMENTS,
  PremiumAssessments,
  UNLOCK_LABEL,
} from './premium-assessments';

function renderCards() {
  const openSurvey = vi.fn();
  renderPage(
    <ShellActionsProvider value={{ openSurvey }}>
      <PremiumAssessments />
    </ShellActionsProvider>,
  );
  return { openSurvey, cards: () => screen.getAllByRole('article') };
}

/** What mf-survey does on success: remember it and tell this tab. */
function completeSurvey() {
  localStorage.setItem(SURVEY_COMPLETED_KEY, '2026-02-01T10:00:00.000Z');
  window.dispatchEvent(
    new StorageEvent('storage', { key: SURVEY_COMPLETED_KEY, newValue: '2026-02-01T10:00:00.000Z' }),
  );
}

describe('premium assessment cards', () => {
  it('are locked, each with a lock badge and a button that opens the survey', async () => {
    const { openSurvey, cards } = renderCards();
    expect(cards()).toHaveLength(PREMIUM_ASSESSMENTS.length);
    for (const card of cards()) {
      expect(within(card).getByText(LOCKED_LABEL)).toBeInTheDocument();
      // The lock is an SVG icon (not an emoji that renders as a box without an emoji font).
      expect(within(card).getByText(LOCKED_LABEL).closest('span')?.querySelector('svg')).not.toBeNull();
      await userEvent.click(within(card).getByRole('button', { name: UNLOCK_LABEL }));
    }
    expect(openSurvey).toHaveBeenCalledTimes(3);
  });

  it('say the reports are on their way as soon as the survey is completed in this tab', () => {
    const { cards } = renderCards();
    act(() => completeSurvey());
    expect(screen.getByText(ON_ITS_WAY_INTRO)).toBeInTheDocument();
    for (const card of cards()) {
      expect(within(card).getByText(ON_ITS_WAY_LABEL)).toBeInTheDocument();
      expect(within(card).queryByText(LOCKED_LABEL)).not.toBeInTheDocument();
      expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    }
  });

  it('remember the completion in this browser on the next visit', () => {
    localStorage.setItem(SURVEY_COMPLETED_KEY, '2026-02-01T10:00:00.000Z');
    const { cards } = renderCards();
    expect(cards().map((card) => within(card).queryByText(ON_ITS_WAY_LABEL))).not.toContain(null);
    expect(screen.queryByRole('button', { name: UNLOCK_LABEL })).not.toBeInTheDocument();
  });
});
