/** What a change of the feed says happened to a process. */
export const CHANGE_KINDS = [
  'PROCESS_ADDED',
  'STATUS_CHANGED',
  'FOLLOW_ADDED',
  'FOLLOW_REMOVED',
  'CUSTOMS_CHANGED',
  'ETA_CHANGED',
  'PROCESS_UPDATED',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
