/** One open stream's place in its user's limit, held until the stream ends. */
export interface StreamLease {
  /** Gives the place back; calls after the first do nothing. */
  release(): void;
}

/**
 * Counts the change streams each user holds open against `CHANGES_STREAMS_PER_USER`: in Redis when
 * it is configured, so the limit holds across instances, in each instance's memory otherwise.
 */
export abstract class ChangeStreamLeases {
  /** A lease for one more stream of the user, or null when they already hold the limit. */
  abstract acquire(userId: string): Promise<StreamLease | null>;
}

/** The streams of this instance alone, counted in its memory. */
export class MemoryChangeStreamLeases extends ChangeStreamLeases {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {
    super();
  }

  acquire(userId: string): Promise<StreamLease | null> {
    const held = this.held.get(userId) ?? 0;
    if (held >= this.limit) return Promise.resolve(null);
    this.held.set(userId, held + 1);
    return Promise.resolve(
      leaseReleasedOnce(() => {
        const left = (this.held.get(userId) ?? 1) - 1;
        if (left === 0) this.held.delete(userId);
        else this.held.set(userId, left);
      }),
    );
  }
}

/** A stream ends once but may be told so more than once (closed, then shut down): count it once. */
export function leaseReleasedOnce(release: () => void): StreamLease {
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      release();
    },
  };
}
