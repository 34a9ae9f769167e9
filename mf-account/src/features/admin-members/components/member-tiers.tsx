import { errorMessage } from '@app/api-client';
import { ROLES } from '@app/contracts';
import type { AdminMember } from '@app/contracts/admin-members';
import { Alert, Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useState } from 'react';
import { changeRole } from '../api/members';
import { MEMBERS_TEXTS as T } from '../texts';

type Result = { tone: 'success' | 'error'; text: string };
type Role = (typeof ROLES.values)[number];

/** Cheapest tier first, as the Plans page lists them; Administrator last. */
const TIER_ORDER: readonly Role[] = ['paid-tier-1', 'paid-tier-2', 'admin'];

/**
 * Grant or revoke Premium, Premium Pro and Administrator for one member, saying what happened. While a change
 * is on its way the buttons are aria-disabled (not disabled), so the focused one keeps focus and, its label
 * flipped between Grant and Revoke, is still where the keyboard user left it.
 */
export function MemberTiers({
  member,
  onChanged,
}: {
  member: AdminMember;
  onChanged: (member: AdminMember) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  const toggle = async (role: Role, grant: boolean) => {
    if (busy) return;
    setBusy(true);
    setResult(null);
    const label = ROLES.labels[role];
    try {
      const updated = await changeRole(member.id, role, grant);
      onChanged(updated);
      setResult({
        tone: 'success',
        text: grant ? T.granted(label, member.username) : T.revoked(label, member.username),
      });
    } catch (error) {
      setResult({ tone: 'error', text: errorMessage(error, T.actionFailed) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label={`${T.tiersHeading}: ${member.username}`}>
      <h3 css={(t: Theme) => css`margin: 0 0 ${t.space(2)}; font-size: ${t.font.body};`}>{T.tiersHeading}</h3>
      <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(2)};`}>
        {TIER_ORDER.map((role) => {
          const has = member.roles.includes(role);
          const label = ROLES.labels[role];
          return (
            <Button
              key={role}
              size="sm"
              variant={has ? 'secondary' : 'primary'}
              aria-disabled={busy || undefined}
              aria-label={`${has ? T.revoke(label) : T.grant(label)}: ${member.username}`}
              onClick={() => void toggle(role, !has)}
            >
              {has ? T.revoke(label) : T.grant(label)}
            </Button>
          );
        })}
      </div>
      {/* Always present, so screen readers announce the result when it arrives. */}
      <div aria-live="polite">{result && <Alert tone={result.tone}>{result.text}</Alert>}</div>
    </section>
  );
}
