// What `pnpm bench:rollout` prints (scripts/bench-rollout.mjs): the canaries' table, the attacker's line, the
// cost of the signals; and which targets were missed (the bench exits 1 when any was).
import { shortReason } from './scenario.mjs';

const int = (n) => (n === null || n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));

function table(head, rows, textColumns) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (textColumns.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

function canaryLines(canaries) {
  const head = [
    'canary',
    'decision',
    'at step (%)',
    'time to decision (s)',
    'canary visitors sampled',
    'target',
    'reason (short)',
  ];
  const rows = canaries.map((c) => [
    c.name,
    c.outcome,
    String(c.step),
    c.seconds.toFixed(1),
    `${int(c.canaryVisitors)}${c.gateSample === null ? '' : ` (gate: ${int(c.gateSample)})`}`,
    `${c.met ? 'met' : 'MISSED'} (${c.target === 'promoted' ? 'promoted' : 'rolled back < 50 %'})`,
    shortReason(c.reason).slice(0, 110),
  ]);
  return table(head, rows, [0, 1, 5, 6]);
}

function attackLines(a) {
  const reasons = Object.entries(a.reasons)
    .sort((x, y) => y[1] - x[1])
    .map(([reason, n]) => `${reason} ${int(n)}`)
    .join(', ');
  const versions = Object.entries(a.after.versions).map(([version, after]) => {
    const before = a.before.versions[version];
    return `${version} ${int(before.visitors)} → ${int(after.visitors)} visitors, ${int(before.views)} → ${int(after.views)} views`;
  });
  const lines = [
    `attacker: ${int(a.sent)} reports sent in ${a.seconds.toFixed(1)} s, ${int(a.accepted)} accepted (204), ` +
      `refused: ${reasons || 'none'}`,
    `  rows counted: rollout_health_signals ${int(a.before.rows)} → ${int(a.after.rows)} (${signed(a.after.rows - a.before.rows)}); ` +
      `refusals counted apart ${signed(a.after.refusals - a.before.refusals)}`,
    `  what the gate reads (the deploy API's health route): ${versions.join('; ')}`,
    '  by kind:',
  ];
  for (const [kind, k] of Object.entries(a.byKind)) {
    const why = Object.entries(k.reasons)
      .map(([reason, n]) => `${reason} ${int(n)}`)
      .join(', ');
    lines.push(
      `    ${kind.padEnd(18)} ${int(k.sent).padStart(6)} sent, ${int(k.statuses[204] ?? 0)} accepted; ${why}`,
    );
  }
  return lines;
}

const signed = (n) => `${n >= 0 ? '+' : ''}${int(n)}`;

function costLines(cost) {
  const ms = (f) => (f.value === null ? `n/a (${f.why})` : `${f.value.toFixed(2)} ms`);
  const chunk = cost.chunk.url
    ? `${int(cost.chunk.gzip?.bytes)} B gzip over the wire (${int(cost.chunk.encodedBodySize)} B as Chromium received it, ` +
      `${int(cost.chunk.decodedBodySize)} B uncompressed)`
    : `n/a (${cost.chunk.why})`;
  return [
    `cost of the signals to the page (Chromium, median of ${cost.runs} page view${cost.runs === 1 ? '' : 's'} of /):`,
    `  report: ${cost.reportBytes.value === null ? `n/a (${cost.reportBytes.why})` : `${int(cost.reportBytes.value)} B`} ` +
      `(one beacon on hide: ${cost.reportKinds.join(', ') || 'no events'})`,
    `  web-vitals chunk: ${chunk}; loaded when the page is idle after its load`,
    `  main thread: start ${ms(cost.startMs)}, web-vitals ${ms(cost.webVitalsMs)} (registering the observers; the ` +
      `chunk's own evaluation is not in it), report ${ms(cost.reportMs)} (on hide)`,
  ];
}

/** Prints everything; returns the missed targets (empty: all met). */
export function printReport({ results, watch, quick, concurrency, seconds, healthLimit }) {
  const missed = [];
  const out = [''];
  out.push(
    `pnpm rollout watch mf-public-pages --steps ${watch.steps.join(',')} --interval ${watch.interval} ` +
      `--min-visitors ${watch.minVisitors} --max-wait ${watch.maxWait}; ${concurrency} visitor sessions at once; ` +
      `reports from 127.0.0.1 with RATE_LIMIT_HEALTH=${healthLimit}${quick ? '; --quick' : ''}`,
    '',
  );
  out.push(...canaryLines(results.canaries));
  for (const c of results.canaries) {
    if (!c.met)
      missed.push(
        `${c.name}: ${c.outcome} at ${c.step} %, target ${c.target}${c.target === 'promoted' ? '' : ' below 50 %'}`,
      );
    const refused = Object.entries(c.reportStatuses).filter(([status]) => status !== '204');
    out.push(
      `  ${c.name}: ${c.version}; ${int(c.pageViews)} page views (${int(c.canaryPageViews)} of the canary)` +
        `${c.watchStartSeconds === null ? '' : `; the watch was up ${c.watchStartSeconds.toFixed(1)} s after the canary started`}` +
        `${refused.length ? `; real reports not accepted: ${refused.map(([s, n]) => `${s} ×${n}`).join(', ')}` : ''}`,
      `    ${c.reason ?? '(no reason)'}`,
    );
  }
  if (results.attack) {
    const a = results.attack;
    out.push('', ...attackLines(a));
    if (a.accepted > 0) missed.push(`attacker: ${a.accepted} forged or replayed reports accepted`);
    if (a.after.rows !== a.before.rows)
      missed.push(`attacker: the reports table changed by ${a.after.rows - a.before.rows} rows`);
    for (const [version, after] of Object.entries(a.after.versions)) {
      const before = a.before.versions[version];
      if (after.visitors !== before.visitors || after.views !== before.views)
        missed.push(`attacker: ${version}'s visitors or page views changed`);
    }
  }
  if (results.cost) out.push('', ...costLines(results.cost));
  if (quick)
    out.push(
      '',
      `--quick: ${watch.minVisitors} canary visitors a step is a smoke run (the full run uses 100); its times ` +
        'and samples are not the figures to quote.',
    );
  out.push(
    '',
    missed.length ? `targets MISSED:\n  ${missed.join('\n  ')}` : 'all targets met',
    `${seconds} s in all`,
  );
  console.log(out.join('\n'));
  return missed;
}
