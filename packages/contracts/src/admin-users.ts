import * as v from 'valibot';
import { RoleSchema } from './enums';

// User administration (activation, roles).

export const AdminUserSchema = v.object({
  id: v.number(),
  username: v.string(),
  email: v.string(),
  is_active: v.boolean(),
  roles: v.array(v.string()),
  created_at: v.string(),
});
export type AdminUser = v.InferOutput<typeof AdminUserSchema>;
/** A role to grant or revoke: one of ROLES (enums.ts), the one list of roles. */
export const RoleChangeSchema = v.object({ role: RoleSchema });
