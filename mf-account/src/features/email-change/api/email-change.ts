import { api } from '@app/api-client';
import { API_PATHS } from '@app/contracts';
import * as v from 'valibot';

const Answer = v.object({ message: v.string(), email: v.string() });

/** Follows the confirmation link mailed to the new address: the email changes. */
export const confirmEmail = (token: string) => api.post(API_PATHS.confirmEmail, { token }, Answer);

/** Follows the undo link mailed to the old address: the old email stays or comes back, every session ends. */
export const undoEmailChange = (token: string) => api.post(API_PATHS.undoEmailChange, { token }, Answer);
