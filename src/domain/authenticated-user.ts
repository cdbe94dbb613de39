export const USER_ROLES = ['customer', 'staff'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Who is calling, as the JWT guard resolved it from a verified token and the users table. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  role: UserRole;
  /** The customers whose processes this user may see; irrelevant for `staff`, who sees all. */
  customerIds: string[];
}

/** Who may see what (`ProcessVisibility` decides): `null` customer ids means every customer. */
export interface Visibility {
  customerIds: string[] | null;
}
