import { SURVEY_COMPLETED_KEY } from '@app/contracts';
import { AppThemeProvider } from '@app/ui';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SurveyThanks, THANKS_TEXT, THANKS_TITLE, useSurveyThanks } from './survey-thanks';

const announceCompletion = () =>
  window.dispatchEvent(new StorageEvent('storage', { key: SURVEY_COMPLETED_KEY, newValue: '2025-01-01' }));

/** Like @app/ui's Modal, it gives focus back to the button that opened it, if that is still there. */
function StandInSurvey({ onComplete, onCancel }: { onComplete: () => void; onCancel: () => void }) {
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    return () => {
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);
  return (
    <div>
      <button type="button" onClick={onComplete}>
        Complete
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** The host with a stand-in survey: "Complete" announces a completion and closes, as mf-survey does. */
function Harness({ openerStays = true }: { openerStays?: boolean }) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const { close, thanks, dismiss } = useSurveyThanks(open, () => setOpen(false));
  return (
    <AppThemeProvider>
      {(openerStays || !done) && (
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
      )}
      {open && (
        <StandInSurvey
          onComplete={() => {
            announceCompletion();
            setDone(true);
            close();
          }}
          onCancel={close}
        />
      )}
      <SurveyThanks shown={thanks} onDismiss={dismiss} />
    </AppThemeProvider>
  );
}

describe('thanks after the survey', () => {
  it('shows a dismissible notice in a polite status region once a completed survey closes', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const region = screen.getByRole('status');
    expect(region).toBeEmptyDOMElement();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Complete' }));
    expect(screen.queryByRole('button', { name: 'Complete' })).not.toBeInTheDocument();
    expect(region).toHaveTextContent(`${THANKS_TITLE}${THANKS_TEXT}`);
    expect(screen.getByRole('region', { name: THANKS_TITLE })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(region).toBeEmptyDOMElement();
  });

  it('says nothing when the survey is closed without completing, even after a completion elsewhere', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    announceCompletion(); // e.g. another tab, before this survey opened
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('takes focus when the button that opened the survey is gone', async () => {
    const user = userEvent.setup();
    render(<Harness openerStays={false} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Complete' }));
    expect(screen.getByRole('region', { name: THANKS_TITLE })).toHaveFocus();
  });

  it('leaves focus where it is when the opener is still there', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Complete' }));
    expect(screen.getByRole('region', { name: THANKS_TITLE })).not.toHaveFocus();
    expect(opener).toHaveFocus();
  });
});
