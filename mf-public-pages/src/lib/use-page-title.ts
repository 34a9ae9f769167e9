import { MESSAGES } from '@app/contracts';
import { useEffect } from 'react';

/** Each page names itself in the browser tab, so screen reader users hear where a navigation landed. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | ${MESSAGES.app.companyName}`;
  }, [title]);
}
