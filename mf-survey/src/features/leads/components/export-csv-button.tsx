import { errorMessage } from '@app/api-client';
import { formatCount } from '@app/contracts';
import type { LeadFilters } from '@app/contracts/leads';
import { Alert, Button } from '@app/ui';
import { useCsvExport } from '../hooks/use-csv-export';
import { LEADS_TEXTS as T } from '../model/texts';

interface ExportCsvButtonProps {
  filters: LeadFilters;
  /** How many leads the filters match (the table's total): the button says what the file will hold. */
  total: number | null;
  /** While the table loads new filters, its total is not yet theirs. */
  stale: boolean;
}

/** Exports exactly the table's filters (every page) as RFC 4180 CSV; the API neutralises formulas. */
export function ExportCsvButton({ filters, total, stale }: ExportCsvButtonProps) {
  const { busy, error, exportCsv } = useCsvExport(filters);
  return (
    <div>
      <Button variant="secondary" disabled={busy || stale || !total} onClick={() => void exportCsv()}>
        {busy ? T.exporting : T.exportCsv(formatCount(total ?? 0))}
      </Button>
      {error ? <Alert tone="error">{errorMessage(error, T.exportFailed)}</Alert> : null}
    </div>
  );
}
