import type { RolloutGate } from '@app/contracts/rollouts-admin';
import { Badge, type BadgeTone } from '@app/ui';

const TONE: Record<RolloutGate['answer'], BadgeTone> = {
  advance: 'success',
  rollback: 'danger',
  inconclusive: 'neutral',
  extending: 'warning',
};

/**
 * The gate's answer now for a running canary (computed by the API with the rule `rollout watch` acts on,
 * docs/decisions/0043-server-signals-in-the-gate.md): "inconclusive" says there are too few visitors in the
 * window to decide, "extending" that a signal is beyond its margin but not yet surely, with the reason.
 */
export function GateAnswer({ gate }: { gate: RolloutGate | undefined }) {
  if (!gate) return <span>not computed (an API older than issue 48)</span>;
  return (
    <span data-testid={`gate-${gate.remote}`}>
      <Badge tone={TONE[gate.answer]}>{gate.answer}</Badge> {gate.reason}
    </span>
  );
}
