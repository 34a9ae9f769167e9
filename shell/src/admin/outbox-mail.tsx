import { OUTBOX_HIDDEN_SECRET, type OutboxMail } from '@app/contracts/outbox';
import { Badge, Button, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useMemo, useRef } from 'react';
import { formatTime, OUTBOX_TEXTS, STATUS_LABELS } from './outbox-texts';

export const STATUS_TONES = {
  pending: 'warning',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
} as const;

// Inline style attributes would be refused by the page's CSP (no 'unsafe-inline'), which a srcdoc frame
// inherits, and each refusal is a violation report. So they travel as data-mail-style and are applied
// through the CSSOM once the frame has loaded (CSP does not govern the CSSOM). Only inside tags: text
// cannot hold a `<`, the templates escape it.
const STYLE_ATTR = /(<[a-z][^<>]*?\s)style=/gi;

/**
 * The mail's HTML as a reader would see it, and safely: a sandboxed frame without allow-scripts (nothing
 * in it runs, its links cannot move this page). allow-same-origin only lets this page reach into the
 * frame's document to apply the styles; with no scripts in the frame, nothing uses it from inside.
 */
function MailHtml({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const srcDoc = useMemo(() => html.replace(STYLE_ATTR, '$1data-mail-style='), [html]);
  const applyStyles = () => {
    const doc = frame.current?.contentDocument;
    for (const el of doc?.querySelectorAll<HTMLElement>('[data-mail-style]') ?? [])
      el.style.cssText = el.getAttribute('data-mail-style') ?? '';
  };
  return (
    <iframe
      ref={frame}
      title={title}
      sandbox="allow-same-origin"
      srcDoc={srcDoc}
      onLoad={applyStyles}
      css={(t: Theme) => css`
        width: 100%;
        height: 360px;
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.sm};
        background: #fff;
      `}
    />
  );
}

const gridCss = (t: Theme) => css`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${t.space(1)} ${t.space(4)};
  margin: 0;
  dt { color: ${t.color.textMuted}; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

/** One mail: who, what, its text and HTML bodies, and every delivery attempt with its error. */
export function OutboxMailDetail({ mail, onBack }: { mail: OutboxMail; onBack: () => void }) {
  return (
    <Card>
      <div>
        <Button variant="secondary" size="sm" onClick={onBack}>
          {OUTBOX_TEXTS.back}
        </Button>
      </div>
      <h2>{mail.subject}</h2>
      <dl css={gridCss}>
        <dt>To</dt>
        <dd>{mail.to}</dd>
        <dt>Kind</dt>
        <dd>{mail.kind}</dd>
        <dt>Status</dt>
        <dd>
          <Badge tone={STATUS_TONES[mail.status]}>{STATUS_LABELS[mail.status]}</Badge>
        </dd>
        <dt>Created</dt>
        <dd>{formatTime(mail.created_at)}</dd>
        <dt>{mail.status === 'sent' ? 'Sent' : 'Next attempt'}</dt>
        <dd>{mail.status === 'sent' ? formatTime(mail.sent_at) : nextAttempt(mail)}</dd>
      </dl>
      <h3>Attempts ({mail.attempt_log.length})</h3>
      {mail.attempt_log.length === 0 ? (
        <p>Not tried yet.</p>
      ) : (
        <ol aria-label="Attempts">
          {mail.attempt_log.map((a, i) => (
            <li key={`${a.at}-${i}`}>
              {formatTime(a.at)}: {a.ok ? 'delivered' : `failed: ${a.error ?? 'no error given'}`}
            </li>
          ))}
        </ol>
      )}
      {mail.text.includes(OUTBOX_HIDDEN_SECRET) && <p>{OUTBOX_TEXTS.hiddenLink}</p>}
      <h3>Text</h3>
      <pre
        css={(t: Theme) => css`
          white-space: pre-wrap;
          overflow-wrap: anywhere;
          padding: ${t.space(3)};
          background: ${t.color.surfaceAlt};
          border-radius: ${t.radius.sm};
        `}
      >
        {mail.text}
      </pre>
      <h3>HTML</h3>
      <MailHtml html={mail.html} title={`HTML body of “${mail.subject}”`} />
    </Card>
  );
}

/** When the mail goes next: nothing for a failed one (it is not retried), a time for a waiting one. */
export function nextAttempt(mail: OutboxMail): string {
  if (mail.status === 'failed') return 'none (gave up)';
  if (mail.status === 'sent') return '—';
  return formatTime(mail.next_attempt_at);
}
