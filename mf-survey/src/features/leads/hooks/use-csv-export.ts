import type { LeadFilters } from '@app/contracts/leads';
import { useState } from 'react';
import { fetchLeadsCsv } from '../api/leads-api';

/** The file name says when it was taken: exports of different days sort and never overwrite each other. */
export const csvFileName = (now = new Date()) => `leads-${now.toISOString().slice(0, 10)}.csv`;

/** Hands a fetched file to the browser as a download (the API needs the token, so no plain link). */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function useCsvExport(filters: LeadFilters) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const exportCsv = async () => {
    setBusy(true);
    setError(null);
    try {
      saveFile(await fetchLeadsCsv(filters), csvFileName());
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, exportCsv };
}
