import { MESSAGES } from '@app/contracts';
import { useEffect } from 'react';

/**
 * Each screen names itself in the browser tab (same "<screen> | <company>" form as the other remotes), so
 * tabs, history and screen readers say where a navigation landed.
 */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | ${MESSAGES.app.companyName}`;
  }, [title]);
}
