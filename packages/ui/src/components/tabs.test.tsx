import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppThemeProvider } from '../theme';
import { Tabs } from './tabs';

function TabsHarness() {
  const [tab, setTab] = useState('a');
  return (
    <AppThemeProvider>
      <Tabs
        label="Sections"
        items={[
          { id: 'a', label: 'Alpha' },
          { id: 'b', label: 'Beta' },
        ]}
        selected={tab}
        onSelect={setTab}
      >
        <p>panel {tab}</p>
      </Tabs>
    </AppThemeProvider>
  );
}
describe('Tabs', () => {
  it('keeps only the selected tab in the tab order and labels the panel with it', () => {
    render(<TabsHarness />);
    expect(screen.getByRole('tablist', { name: 'Sections' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tabpanel', { name: 'Alpha' })).toHaveTextContent('panel a');
  });

  it('wraps around with ArrowLeft from the first tab, and a click selects', async () => {
    const user = userEvent.setup();
    render(<TabsHarness />);
    await user.click(screen.getByRole('tab', { name: 'Alpha' }));
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Beta' })).toHaveTextContent('panel b');
    await user.click(screen.getByRole('tab', { name: 'Alpha' }));
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'false');
  });

  it('moves between tabs with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<TabsHarness />);
    await user.click(screen.getByRole('tab', { name: 'Alpha' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('panel b');
  });
});
