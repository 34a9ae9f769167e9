import { Link, useLocation } from '@app/router';
import { VisuallyHidden } from '@app/ui';
import { css, type SerializedStyles, type Theme } from '@emotion/react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { onOutboxAttention, outboxAttention } from '../admin/outbox-alert';
import { OUTBOX_PATH } from '../admin/outbox-path';
import { ROLLOUTS_PATH } from '../admin/rollouts-path';

/** The administrators' screens (issue 34): each owned by the team of its domain, the last two by the shell. */
export const ADMIN_ITEMS = [
  { to: '/admin/members', label: 'Members' },
  { to: '/admin/leads', label: 'Leads' },
  { to: ROLLOUTS_PATH, label: 'Rollouts' },
  { to: OUTBOX_PATH, label: 'Outbox' },
  { to: '/admin/company', label: 'Company details' },
] as const;

export const ATTENTION_TEXT = (n: number) => `, ${n} ${n === 1 ? 'mail needs' : 'mails need'} attention`;

const under = (path: string, pathname: string) => pathname === path || pathname.startsWith(`${path}/`);

/**
 * How many mails need an administrator (failed, or waiting while delivery fails). Asked only here, in the
 * menu only administrators get; again on navigation, answered from outbox-alert's cache for a minute.
 */
function useOutboxAttention(): number {
  const { pathname } = useLocation();
  const [count, setCount] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation is the moment to ask again (the chunk's cache decides whether to).
  useEffect(() => {
    let live = true;
    void outboxAttention().then(
      (n) => live && setCount(n),
      () => {},
    );
    const unsubscribe = onOutboxAttention(setCount);
    return () => {
      live = false;
      unsubscribe();
    };
  }, [pathname]);
  return count;
}

function Attention({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        css={(t: Theme) => css`
          margin-left: ${t.space(2)};
          min-width: 20px;
          padding: 0 6px;
          border-radius: ${t.radius.pill};
          background: ${t.color.danger};
          color: ${t.color.primaryText};
          font-size: 0.75rem;
          font-weight: 700;
          line-height: 20px;
          text-align: center;
        `}
      >
        {count > 99 ? '99+' : count}
      </span>
      <VisuallyHidden>{ATTENTION_TEXT(count)}</VisuallyHidden>
    </>
  );
}

interface Props {
  layout: 'row' | 'column';
  /** The nav's link style for this layout, so the items look like the other links. */
  linkCss: (t: Theme) => SerializedStyles;
  onNavigate?: () => void;
}

/**
 * The Admin entry: a disclosure menu in the desktop row, a labelled group in the mobile drawer. A chunk of
 * its own with the outbox badge (nav-items loads it lazily for administrators): visitors never get it.
 */
export default function AdminMenu({ layout, linkCss, onNavigate }: Props) {
  const { pathname } = useLocation();
  const attention = useOutboxAttention();
  const items = ADMIN_ITEMS.map((item) => (
    <li key={item.to}>
      <Link
        to={item.to}
        aria-current={under(item.to, pathname) ? 'page' : undefined}
        onClick={onNavigate}
        css={linkCss}
      >
        {item.label}
        {item.to === OUTBOX_PATH && <Attention count={attention} />}
      </Link>
    </li>
  ));
  return layout === 'row' ? (
    <AdminDisclosure current={under('/admin', pathname)} attention={attention}>
      {items}
    </AdminDisclosure>
  ) : (
    <AdminGroup attention={attention}>{items}</AdminGroup>
  );
}

const listCss = css`list-style: none; margin: 0; padding: 0;`;

function AdminGroup({ attention, children }: { attention: number; children: ReactNode }) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of page links, not of form controls (which fieldset is for).
    <div role="group" aria-labelledby={id}>
      <p
        id={id}
        css={(t: Theme) => css`
          margin: ${t.space(3)} 0 ${t.space(1)};
          padding: 0 ${t.space(3)};
          color: ${t.color.textMuted};
          font-size: ${t.font.small};
          font-weight: 700;
          text-transform: uppercase;
          letter-spacing: 0.06em;
        `}
      >
        Admin
        <Attention count={attention} />
      </p>
      <ul css={[listCss, css`padding-left: 12px;`]}>{children}</ul>
    </div>
  );
}

/**
 * The disclosure pattern (a button that shows a list of links), not ARIA's menu role: these are page links.
 * Arrow keys, Home and End move between them; Esc closes and returns focus to the button; focus or a click
 * leaving the menu closes it; so does a navigation.
 */
function AdminDisclosure({
  current,
  attention,
  children,
}: {
  current: boolean;
  attention: number;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [open]);

  // On the wrapper (the button and the links), attached natively: the wrapper itself is not interactive.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const links = () => [...el.querySelectorAll<HTMLElement>('ul a')];
    const onKeyDown = (event: KeyboardEvent) => {
      const all = links();
      const at = all.indexOf(document.activeElement as HTMLElement);
      const go = (i: number) => {
        event.preventDefault();
        // Opening renders the list at once, so the link can take focus in this same keystroke.
        if (!open) flushSync(() => setOpen(true));
        links()[(i + all.length) % all.length]?.focus();
      };
      if (event.key === 'Escape' && open) {
        event.preventDefault();
        setOpen(false);
        button.current?.focus();
      } else if (event.key === 'ArrowDown') go(at + 1);
      else if (event.key === 'ArrowUp') go(at < 0 ? -1 : at - 1);
      else if (event.key === 'Home' && at >= 0) go(0);
      else if (event.key === 'End' && at >= 0) go(-1);
    };
    el.addEventListener('keydown', onKeyDown);
    return () => el.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <div ref={box} css={css`position: relative;`}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-current={current ? 'true' : undefined}
        onClick={() => setOpen(!open)}
        css={(t: Theme) => css`
          display: flex;
          align-items: center;
          padding: ${t.space(2)} ${t.space(3)};
          border: 0;
          border-radius: ${t.radius.sm};
          background: none;
          color: ${current ? t.color.primary : t.color.text};
          font: inherit;
          font-weight: ${current ? 700 : 500};
          cursor: pointer;
          &:hover { background: ${t.color.surfaceAlt}; }
          &::after { content: ''; margin-left: 6px; border: 4px solid transparent; border-top-color: currentColor; transform: translateY(2px) ${open ? 'rotate(180deg) translateY(4px)' : ''}; }
        `}
      >
        Admin
        <Attention count={attention} />
      </button>
      <ul
        id={id}
        hidden={!open}
        css={(t: Theme) => css`
          ${listCss};
          position: absolute;
          top: calc(100% + 4px);
          right: 0;
          min-width: 200px;
          padding: ${t.space(1)};
          background: ${t.color.surface};
          border: 1px solid ${t.color.border};
          border-radius: ${t.radius.md};
          box-shadow: 0 12px 24px ${t.shadow};
          &[hidden] { display: none; }
        `}
      >
        {children}
      </ul>
    </div>
  );
}
