// pg-copy-streams ships no types; this is the part the loader uses.
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  import type { Submittable } from 'pg';

  export interface CopyStreamQuery extends Writable, Submittable {
    rowCount: number;
  }
  export function from(text: string): CopyStreamQuery;
  const copyStreams: { from: typeof from };
  export default copyStreams;
}
