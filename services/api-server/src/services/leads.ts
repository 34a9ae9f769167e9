import {
  LEAD_FILTER_KEYS,
  type LeadDetail,
  type LeadFilters,
  type LeadSummary,
  type LeadsPage,
  type LeadsQuery,
} from '@app/contracts/leads';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { AdminAudit, AuditActor } from './admin-audit';
import { MemoUntilWrite } from './memo-until-write';

/** A market_assessments row as the leads read it (PostgreSQL's BIGINTs arrive as strings). */
interface LeadRow {
  id: number | string;
  created_at: string;
  email: string;
  payload: string;
  industry: string;
  company_size: string;
  urgency: string;
  consultation: number | string;
  contacted_at: number | string | null;
  contacted_by: string | null;
  contacted_note: string;
}

type Answers = LeadDetail['answers'];

const COLUMNS = `id, created_at, email, payload, industry, company_size, urgency, consultation, contacted_at,
  contacted_by, contacted_note`;
/** The list's order; idx_leads_list (migration 14) is in it, so no query here sorts. */
const ORDER = 'ORDER BY created_at DESC, id DESC';
/** Rows per query of the export: a few milliseconds of the event loop each, whatever the total. */
const EXPORT_BATCH = 250;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` (the schema checked the shape) as the ISO text created_at is compared with; 400 if no such day. */
function dayStart(day: string, name: string): number {
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day)
    throw new HttpError(400, `${name} must be a date (YYYY-MM-DD)`);
  return ms;
}

/**
 * The filters as SQL. `counts` spells them for lead_counts (migration 14), which has `contacted` as 0/1
 * instead of contacted_at and no dates; `dates: false` leaves the days out. Days are inclusive and in UTC:
 * `to` means before the next midnight.
 */
function where(
  f: LeadFilters,
  { counts = false, dates = !counts }: { counts?: boolean; dates?: boolean } = {},
): { sql: string; params: unknown[] } {
  const terms: string[] = [];
  const params: unknown[] = [];
  const eq = (column: string, value: unknown) => {
    terms.push(`${column} = ?`);
    params.push(value);
  };
  if (f.consultation) eq('consultation', f.consultation === 'yes' ? 1 : 0);
  if (f.contacted && counts) eq('contacted', f.contacted === 'yes' ? 1 : 0);
  if (f.contacted && !counts)
    terms.push(f.contacted === 'yes' ? 'contacted_at IS NOT NULL' : 'contacted_at IS NULL');
  if (f.urgency) eq('urgency', f.urgency);
  if (f.industry) eq('industry', f.industry);
  if (f.companySize) eq('company_size', f.companySize);
  const { start, end } = range(f);
  if (start && dates) {
    terms.push('created_at >= ?');
    params.push(start);
  }
  if (end && dates) {
    terms.push('created_at < ?');
    params.push(end);
  }
  return { sql: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
}

/** The days as created_at bounds: from the first instant of `from` to before the day after `to`. */
function range(f: LeadFilters): { start: string | null; end: string | null } {
  return {
    start: f.from ? new Date(dayStart(f.from, 'from')).toISOString() : null,
    end: f.to ? new Date(dayStart(f.to, 'to') + DAY_MS).toISOString() : null,
  };
}

/** The filters as a memo key: their values in LEAD_FILTER_KEYS' order. */
const filterKey = (f: LeadFilters) => LEAD_FILTER_KEYS.map((k) => f[k]).join('\u0000');

function answersOf(row: LeadRow): Answers {
  try {
    return JSON.parse(row.payload) as Answers;
  } catch {
    // Every stored payload was validated JSON; a damaged one still shows its row rather than failing the page.
    return { email: row.email } as Answers;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function summaryOf(row: LeadRow, a: Answers): LeadSummary {
  return {
    id: Number(row.id),
    created_at: row.created_at,
    email: row.email,
    name: [text(a.firstName), text(a.lastName)].filter(Boolean).join(' '),
    company: text(a.company),
    industry: row.industry,
    company_size: row.company_size,
    role: text(a.role),
    urgency: row.urgency,
    consultation: Number(row.consultation) === 1,
    communication_method: text(a.communicationMethod),
    contacted_at: row.contacted_at === null ? null : Number(row.contacted_at),
  };
}

export function detailOf(row: LeadRow): LeadDetail {
  const answers = answersOf(row);
  return {
    ...summaryOf(row, answers),
    answers,
    contacted_by: row.contacted_by,
    contacted_note: row.contacted_note,
  };
}

/** Every market assessment as a lead (issue 34, /admin/leads): the table, one lead, contacted, the export. */
export class LeadsService {
  /**
   * Totals per filter until the next write: an administrator pages through one filter (and the next page
   * asks the same count), while a new lead or a "contacted" is rare beside those reads. On a month's leads
   * the count was most of a page's ~1 ms (issue 34's bench).
   */
  private readonly totals: MemoUntilWrite<number>;

  constructor(
    private readonly sql: Sql,
    private readonly audit: AdminAudit,
  ) {
    this.totals = new MemoUntilWrite(sql);
  }

  /**
   * One page, newest first, and how many match (`total`). The page: the ids from idx_leads_list, which holds
   * every filtered column, then those rows, so a deep page skips index entries instead of table rows.
   */
  async page(q: LeadsQuery): Promise<LeadsPage> {
    const filter = where(q);
    const total = await this.totals.get(filterKey(q), () => this.total(q));
    const offset = (q.page - 1) * q.limit;
    const rows =
      offset >= total
        ? []
        : await this.sql.all<LeadRow>(
            `SELECT ${COLUMNS} FROM market_assessments WHERE id IN (
               SELECT id FROM market_assessments ${filter.sql} ${ORDER} LIMIT ? OFFSET ?) ${ORDER}`,
            [...filter.params, q.limit, offset],
          );
    return {
      items: rows.map((row) => summaryOf(row, answersOf(row))),
      total,
      page: q.page,
      limit: q.limit,
    };
  }

  /**
   * Without days: a sum over lead_counts (a few hundred rows at most, whatever the number of leads). With
   * days a count over idx_leads_list, whose cost is the number of entries it reads (~1 ms per 10,000 here):
   * of the leads inside the days, or, when those look like the greater part, of the leads outside them,
   * taken from the total. So "everything since 2020" costs what "the last week" costs.
   */
  private async total(q: LeadFilters): Promise<number> {
    const counted = where(q, { counts: true });
    const all = Number(
      await this.sql.value(`SELECT COALESCE(SUM(n), 0) FROM lead_counts ${counted.sql}`, counted.params),
    );
    const { start, end } = range(q);
    if (!start && !end) return all;
    if (!(await this.mostlyInside(start, end))) {
      const inside = where(q);
      return Number(
        await this.sql.value(`SELECT COUNT(*) FROM market_assessments ${inside.sql}`, inside.params),
      );
    }
    const rest = where(q, { dates: false });
    const and = rest.sql ? `${rest.sql} AND` : 'WHERE';
    const count = async (term: string, bound: string) =>
      Number(
        await this.sql.value(`SELECT COUNT(*) FROM market_assessments ${and} ${term}`, [
          ...rest.params,
          bound,
        ]),
      );
    return (
      all -
      (start ? await count('created_at < ?', start) : 0) -
      (end ? await count('created_at >= ?', end) : 0)
    );
  }

  /** Whether [start, end) spans more than half the time between the first and the last lead. */
  private async mostlyInside(start: string | null, end: string | null): Promise<boolean> {
    const span = await this.sql.get<{ lo: string | null; hi: string | null }>(
      `SELECT (SELECT MIN(created_at) FROM market_assessments) AS lo,
              (SELECT MAX(created_at) FROM market_assessments) AS hi`,
    );
    if (!span?.lo || !span.hi) return false;
    const lo = Date.parse(span.lo);
    const hi = Date.parse(span.hi);
    const from = Math.max(lo, start ? Date.parse(start) : lo);
    const to = Math.min(hi, end ? Date.parse(end) : hi);
    return hi > lo && (to - from) / (hi - lo) > 0.5;
  }

  async detail(id: number, db: Sql = this.sql): Promise<LeadDetail | null> {
    const row = await db.get<LeadRow>(`SELECT ${COLUMNS} FROM market_assessments WHERE id = ?`, [id]);
    return row ? detailOf(row) : null;
  }

  /**
   * Marks a lead contacted (again: a new note and time) or, with `note` null, not contacted. The change and
   * its audit row share one transaction. Un-marking a lead that is not marked changes and records nothing.
   */
  setContacted(id: number, actor: AuditActor, note: string | null, at: number): Promise<LeadDetail | null> {
    return this.sql.transaction(async (tx) => {
      const before = await this.detail(id, tx);
      if (!before) return null;
      if (note !== null) {
        await tx.run(
          'UPDATE market_assessments SET contacted_at = ?, contacted_by = ?, contacted_note = ? WHERE id = ?',
          [at, actor.username, note, id],
        );
        await this.audit.record(tx, actor, 'lead.contacted', `lead:${id}`, { note });
      } else if (before.contacted_at !== null) {
        await tx.run(
          "UPDATE market_assessments SET contacted_at = NULL, contacted_by = NULL, contacted_note = '' WHERE id = ?",
          [id],
        );
        await this.audit.record(tx, actor, 'lead.uncontacted', `lead:${id}`, {
          contacted_at: before.contacted_at,
          contacted_by: before.contacted_by,
          note: before.contacted_note,
        });
      } else {
        return before;
      }
      return this.detail(id, tx);
    });
  }

  /**
   * Every lead the filters match, newest first, a batch at a time: keyset paging on (created_at, id), so
   * each batch is a short indexed read and 100,000 leads are never in memory at once. A lead submitted
   * while the export runs is newer than the first batch and is left out, never repeated.
   */
  export(filters: LeadFilters): AsyncGenerator<LeadDetail[]> {
    // Built now, not when the first batch is asked for: an impossible day is a 400 before the answer starts.
    return this.batches(where(filters));
  }

  private async *batches(filter: { sql: string; params: unknown[] }): AsyncGenerator<LeadDetail[]> {
    const and = filter.sql ? `${filter.sql} AND` : 'WHERE';
    let after: { created_at: string; id: number } | null = null;
    for (;;) {
      const rows: LeadRow[] = after
        ? await this.sql.all<LeadRow>(
            // A row value, not `a < ? OR (a = ? AND b < ?)`: SQLite seeks the index only for the former
            // (the OR scanned from the top every batch: 20 ms a batch at the end of 100,000).
            `SELECT ${COLUMNS} FROM market_assessments ${and} (created_at, id) < (?, ?) ${ORDER} LIMIT ?`,
            [...filter.params, after.created_at, after.id, EXPORT_BATCH],
          )
        : await this.sql.all<LeadRow>(
            `SELECT ${COLUMNS} FROM market_assessments ${filter.sql} ${ORDER} LIMIT ?`,
            [...filter.params, EXPORT_BATCH],
          );
      if (rows.length === 0) return;
      yield rows.map(detailOf);
      if (rows.length < EXPORT_BATCH) return;
      // SQLite answers synchronously and a local client drains the socket at once, so without this the
      // whole export is one chain of microtasks and no other request is answered until it ends (measured:
      // the event loop blocked 7 s for 100,000 leads). One turn of the event loop between batches.
      await new Promise((resolve) => setImmediate(resolve));
      const last = rows[rows.length - 1]!;
      after = { created_at: last.created_at, id: Number(last.id) };
    }
  }
}
