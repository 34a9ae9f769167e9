import { errorMessage } from '@app/api-client';
import type { AdminMember } from '@app/contracts/admin-members';
import { useCallback, useRef, useState } from 'react';
import { changeMembers } from '../api/members';
import { MEMBERS_TEXTS as T } from '../texts';

export interface Notice {
  tone: 'success' | 'warning' | 'error';
  text: string;
  /** Members the API left alone, named for the reader, with its reason. */
  skipped: { id: number; label: string; reason: string }[];
}

export type BulkAction = 'activate' | 'reject';

/**
 * Activate or reject one or many members: posts the ids, says what was done and what was skipped (and why),
 * then lets the list reload. Focus moves to that message afterwards, because the rows acted on may be gone
 * (a rejected registration, an activated one under "Pending").
 */
export function useMemberActions(members: readonly AdminMember[], afterChange: () => void) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const membersRef = useRef(members);
  membersRef.current = members;
  const afterChangeRef = useRef(afterChange);
  afterChangeRef.current = afterChange;

  const run = useCallback(async (action: BulkAction, ids: number[]) => {
    if (ids.length === 0) return;
    setBusy(true);
    setNotice(null);
    try {
      const result = await changeMembers(action, ids);
      const label = (id: number) => membersRef.current.find((m) => m.id === id)?.username ?? `#${id}`;
      const n = result.done.length;
      setNotice({
        tone: result.skipped.length > 0 ? 'warning' : 'success',
        text: action === 'activate' ? T.activated(n) : T.rejected(n),
        skipped: result.skipped.map((s) => ({ ...s, label: label(s.id) })),
      });
      afterChangeRef.current();
    } catch (error) {
      setNotice({ tone: 'error', text: errorMessage(error, T.actionFailed), skipped: [] });
    } finally {
      setBusy(false);
      // After React has shown the message (a frame later), so focus lands on the new text.
      requestAnimationFrame(() => noticeRef.current?.focus());
    }
  }, []);

  const clearNotice = useCallback(() => setNotice(null), []);
  return { busy, notice, noticeRef, run, clearNotice };
}
