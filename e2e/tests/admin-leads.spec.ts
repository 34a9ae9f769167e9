import fs from 'node:fs';
import { CHALLENGES } from '@app/contracts';
import { createMember, uniqueName, useToken } from '../support/api';
import { completeAssessment } from '../support/survey';
import { expect, type Page, test } from '../support/test';

/**
 * Issue 34: /admin/leads end to end, on the real API and a fresh database. A visitor completes the market
 * assessment with a hostile company name and asks for a consultation; an administrator finds the lead with
 * the consultation filter, reads every answer, marks it contacted with a note, and exports the filtered
 * leads: the file holds the row, the formula neutralised and the fields quoted as RFC 4180 says.
 */
// Starts like a spreadsheet formula (OWASP "CSV injection"), and holds a comma and quotes (RFC 4180 quoting).
const HOSTILE_COMPANY = `=cmd|' /C calc'!A0, "Evil" Ltd`;
const NOTE = 'Called, agreed a demo.\nSend the "Pro" deck first.';

const main = (page: Page) => page.locator('main');

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  return rows;
}

test('an administrator filters the leads, reads one, marks it contacted and exports it as safe CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const last = uniqueName('Lead');
  const who = { first: 'Eve', last, email: `${last.toLowerCase()}@example.com` };
  await completeAssessment(page, { ...who, company: HOSTILE_COMPANY });

  const boss = await createMember(request, ['admin'], 'boss');
  await useToken(page, boss.token);
  await page.goto('/admin/leads');
  await expect(main(page).getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
  await main(page).getByRole('combobox', { name: 'Consultation wanted' }).selectOption('yes');
  await expect(page).toHaveURL(/\/admin\/leads\?consultation=yes$/);

  const table = main(page).getByRole('table', { name: /^Leads, Page 1 of \d/ });
  const row = table.getByRole('row').filter({ hasText: who.email });
  await expect(row).toContainText(HOSTILE_COMPANY);
  await expect(row).toContainText('Manufacturing');
  // The filter reached the API: every row shown wants a consultation.
  await expect(table.getByRole('row')).not.toHaveCount(1);
  for (const cell of await table.locator('tbody tr td:nth-child(8)').allTextContents())
    expect(cell).toBe('Yes');

  // The detail: every answer labelled, and the address names the lead (a reload keeps it open).
  await row.getByRole('link', { name: `Eve ${last}` }).click();
  const d = page.getByRole('dialog', { name: `Lead: Eve ${last}` });
  await expect(d.getByText(HOSTILE_COMPANY, { exact: true })).toBeVisible();
  await expect(d.getByText('201-500 employees')).toBeVisible();
  await expect(d.getByText('CFO', { exact: true })).toBeVisible();
  await expect(d.getByText(CHALLENGES.labels['cash-flow'])).toBeVisible();
  await expect(d.getByText('Immediate (within a month)')).toBeVisible();
  await expect(page).toHaveURL(/[?&]lead=\d+/);
  await page.reload();
  await expect(d.getByRole('textbox', { name: 'Note' })).toBeVisible();

  await d.getByRole('textbox', { name: 'Note' }).fill(NOTE);
  await d.getByRole('button', { name: 'Mark as contacted' }).click();
  await expect(d.getByText(new RegExp(`^Contacted on .+ by ${boss.username}\\.$`))).toBeVisible();
  await d.getByRole('button', { name: 'Close' }).click();
  await expect(d).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/leads\?consultation=yes$/);
  await expect(row.locator('td:nth-child(9)')).not.toHaveText('No');

  // The export: exactly the filtered leads, with the token (no plain link could carry it).
  const exportButton = main(page).getByRole('button', { name: /^Export CSV \([\d,]+ leads?\)$/ });
  const total = Number((await exportButton.textContent())?.replace(/\D/g, ''));
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  expect(csv.startsWith('\uFEFF')).toBe(true);

  // Neutralised (a leading quote, so no spreadsheet runs it) and quoted (comma, doubled quotes), byte for byte.
  expect(csv).toContain(`"'=cmd|' /C calc'!A0, ""Evil"" Ltd"`);
  expect(csv).toContain(`"Called, agreed a demo.\nSend the ""Pro"" deck first."`);
  const [header, ...records] = parseCsv(csv.slice(1));
  expect(records).toHaveLength(total);
  const column = (name: string) => (header ?? []).indexOf(name);
  const ours = records.find((r) => r[column('email')] === who.email);
  expect(ours?.[column('company')]).toBe(`'${HOSTILE_COMPANY}`);
  expect(ours?.[column('first name')]).toBe('Eve');
  expect(ours?.[column('contacted by')]).toBe(boss.username);
  expect(ours?.[column('note')]).toBe(NOTE);
  expect(records.every((r) => r[column('consultation')] === ours?.[column('consultation')])).toBe(true);
});
