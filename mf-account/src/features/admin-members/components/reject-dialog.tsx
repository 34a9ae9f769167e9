import { Button, Modal } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { MEMBERS_TEXTS as T } from '../texts';

/** Reject deletes registrations: it is asked once more, naming who, before anything is sent. */
export function RejectDialog({
  names,
  onConfirm,
  onCancel,
}: {
  names: string[];
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal title={T.rejectTitle(names.length)} onClose={onCancel} width="480px">
      <p css={css`margin-top: 0;`}>{T.rejectText}</p>
      <ul
        css={(t: Theme) => css`
          max-height: 160px;
          overflow-y: auto;
          margin: 0 0 ${t.space(5)};
          padding-left: ${t.space(5)};
        `}
      >
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      <div css={(t: Theme) => css`display: flex; gap: ${t.space(3)}; justify-content: flex-end;`}>
        <Button variant="secondary" onClick={onCancel}>
          {T.cancel}
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          {T.rejectConfirm}
        </Button>
      </div>
    </Modal>
  );
}
