import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { LeadContactedSchema, LeadFiltersSchema, LeadsQuerySchema } from '@app/contracts/leads';
import type { Hono } from 'hono';
import { CSV_BOM } from '../csv';
import { HttpError, parseWith } from '../errors';
import type { LeadsService } from '../services/leads';
import { leadCsvHeader, leadCsvRow } from '../services/leads-csv';
import { type C, type Env, type RouteDeps, requireAdmin } from './http-helpers';

const leadNotFound = () => new HttpError(404, 'Lead not found');
const leadId = (c: C) => {
  const id = c.req.param('id') ?? '';
  if (!/^\d{1,12}$/.test(id)) throw leadNotFound();
  return Number(id);
};

/** /admin/leads (issue 34): every market assessment as a lead, for administrators only. */
export function registerAdminLeadRoutes(
  app: Hono<Env>,
  { json, now }: Pick<RouteDeps, 'json' | 'now'>,
  leads: LeadsService,
) {
  app.get(ADMIN_PATHS.leads, async (c) => {
    requireAdmin(c);
    return c.json(await leads.page(parseWith(LeadsQuerySchema, c.req.query())));
  });

  // Every lead the filters match, streamed a batch at a time (services/leads.ts `export`), so 100,000
  // leads neither wait for the whole file nor sit in memory. A streamed answer is not compressed
  // (src/http-compression.ts compresses whole bodies only).
  app.get(ADMIN_PATHS.leadsCsv, (c) => {
    requireAdmin(c);
    const batches = leads.export(parseWith(LeadFiltersSchema, c.req.query()));
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(CSV_BOM + leadCsvHeader()));
      },
      // Asked for the next batch only when the client has taken the last one (backpressure).
      async pull(controller) {
        try {
          const next = await batches.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value.map(leadCsvRow).join('')));
        } catch (error) {
          // Headers are sent: all that is left is to cut the download short, which the client sees.
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return(undefined);
      },
    });
    const day = new Date(now()).toISOString().slice(0, 10);
    return c.body(stream, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="leads-${day}.csv"`,
      'Cache-Control': 'no-store',
    });
  });

  app.get(ADMIN_PATHS.lead(':id'), async (c) => {
    requireAdmin(c);
    const lead = await leads.detail(leadId(c));
    if (!lead) throw leadNotFound();
    return c.json(lead);
  });

  const contacted = async (c: C, mark: boolean) => {
    const who = requireAdmin(c);
    const id = leadId(c);
    const note = mark ? parseWith(LeadContactedSchema, (await json(c)) ?? {}).note : null;
    const lead = await leads.setContacted(id, { id: who.userId, username: who.username }, note, now());
    if (!lead) throw leadNotFound();
    return c.json(lead);
  };
  app.post(ADMIN_PATHS.leadContacted(':id'), (c) => contacted(c, true));
  app.delete(ADMIN_PATHS.leadContacted(':id'), (c) => contacted(c, false));
}
