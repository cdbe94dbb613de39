/**
 * What a client application may be allowed to do, each scope once with what it grants. A user's own
 * token may do all of it; a client's token what it was given.
 */
export const SCOPES = {
  'processes:read': 'Read the process list and each process’s detail',
  'changes:read': 'Read the change feed and its stream',
  'webhooks:manage': 'Create, change, replay and delete webhooks, and read their deliveries',
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
