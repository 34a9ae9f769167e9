import { useServerState } from '@app/server-state';
import { useState } from 'react';
import { fetchLead, markLeadContacted, unmarkLeadContacted } from '../api/leads-api';

export function useLeadDetail(id: number) {
  return useServerState((signal) => fetchLead(id, signal), [id]);
}

/**
 * Marking a lead contacted (with a note) or not. On success `onDone` reloads what shows it (the detail and
 * the table); on failure the error stays for the form to show, and the typed note stays where it is.
 */
export function useContactedChange(id: number, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (change: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await change();
      onDone();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    error,
    mark: (note: string) => run(() => markLeadContacted(id, note)),
    unmark: () => run(() => unmarkLeadContacted(id)),
  };
}
