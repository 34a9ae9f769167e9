import { MESSAGES } from '@app/contracts';
import { useEffect } from 'react';

/**
 * Every screen names itself in the browser tab as "<screen> | <company>", so tabs, history and screen
 * readers say where a navigation landed. One hook for the shell and every remote, so the form is one rule.
 */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | ${MESSAGES.app.companyName}`;
  }, [title]);
}
