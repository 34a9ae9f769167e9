import { Alert } from '@app/ui';
import { MEMBERS_TEXTS as T } from '../texts';

/** What a member (or a guest whose token the API refuses) sees: the API answers 403 anyway. */
export function AdminOnly() {
  return (
    <Alert tone="error">
      <strong>{T.adminOnly}</strong>. {T.adminOnlyText}
    </Alert>
  );
}
