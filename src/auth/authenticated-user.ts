import type { UserRole } from '../database/schema.js';

/** Who is calling, as the JWT guard resolved it from a verified token and the users table. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  role: UserRole;
  /** The customers whose processes this user may see; irrelevant for `staff`, who sees all. */
  customerIds: string[];
}
