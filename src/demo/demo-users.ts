import type { UserRole } from '../domain/authenticated-user.js';

/** The demo accounts. Demo mode only, never in production. */
export const DEMO_USERS: ReadonlyArray<{
  username: string;
  password: string;
  role: UserRole;
  customerIds: string[];
}> = [
  { username: 'acme', password: 'acme-demo-2026', role: 'customer', customerIds: ['acme'] },
  { username: 'globex', password: 'globex-demo-2026', role: 'customer', customerIds: ['globex'] },
  { username: 'operator', password: 'operator-demo-2026', role: 'staff', customerIds: [] },
];
