import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppThemeProvider } from '../theme';
import { Checkbox } from './field';

const LONG_LABEL =
  'Market intelligence on competitors, suppliers and regulation in every region we sell to, delivered monthly';

describe('Checkbox', () => {
  it('keeps a 16 px box that never shrinks, beside a label that takes the rest of the row and wraps', () => {
    render(
      <AppThemeProvider>
        <div style={{ width: '200px' }}>
          <Checkbox label={LONG_LABEL} name="topics" />
        </div>
      </AppThemeProvider>,
    );
    const box = screen.getByRole('checkbox', { name: LONG_LABEL });
    const boxStyle = getComputedStyle(box);
    expect(boxStyle.flexShrink).toBe('0');
    expect(boxStyle.flexGrow).toBe('0');
    expect(boxStyle.width).toBe('16px');
    expect(boxStyle.height).toBe('16px');
    const text = screen.getByText(LONG_LABEL);
    expect(getComputedStyle(text).minWidth).toBe('0px');
    expect(getComputedStyle(text).flexGrow).toBe('1');
    expect(getComputedStyle(box.closest('label') as HTMLElement).display).toBe('flex');
  });

  it('toggles from a click on its label text', async () => {
    const user = userEvent.setup();
    render(
      <AppThemeProvider>
        <Checkbox label="Email me" />
      </AppThemeProvider>,
    );
    await user.click(screen.getByText('Email me'));
    expect(screen.getByRole('checkbox', { name: 'Email me' })).toBeChecked();
  });
});
