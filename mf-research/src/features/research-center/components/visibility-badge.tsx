import { VISIBILITIES, type Visibility } from '@app/contracts';
import { Badge, type BadgeTone } from '@app/ui';

const TONE: Record<Visibility, BadgeTone> = {
  public: 'success',
  members_only: 'info',
  'paid-tier-1': 'warning',
  'paid-tier-2': 'warning',
  private: 'danger',
};

/** The visibility badge of SPEC §2: its label ('Public', 'Members', 'Premium', ...) in a tone per tier. */
export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  return (
    <Badge tone={TONE[visibility]} title={`Visibility: ${VISIBILITIES.labels[visibility]}`}>
      {VISIBILITIES.labels[visibility]}
    </Badge>
  );
}
