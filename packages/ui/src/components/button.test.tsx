import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppThemeProvider } from '../theme';
import { Button } from './button';

describe('Button', () => {
  it('does not submit the form it sits in unless asked to', async () => {
    const submit = vi.fn((event: SubmitEvent) => event.preventDefault());
    render(
      <AppThemeProvider>
        <form onSubmit={(e) => submit(e.nativeEvent as SubmitEvent)}>
          <Button>Preview</Button>
          <Button type="submit">Save</Button>
        </form>
      </AppThemeProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(submit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('ignores clicks while disabled, and hands its ref to the <button>', async () => {
    const onClick = vi.fn();
    const ref = createRef<HTMLButtonElement>();
    render(
      <AppThemeProvider>
        <Button ref={ref} disabled onClick={onClick} variant="danger">
          Delete
        </Button>
      </AppThemeProvider>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(button).toBeDisabled();
    expect(ref.current).toBe(button);
  });
});
