/** How an outage is answered: the sentence the client reads and how long it should wait. */
export interface Outage {
  detail: string;
  retryAfterSeconds: number;
}

/**
 * Tells the errors that mean a dependency cannot serve now (an outage: 503 with `Retry-After`)
 * from bugs (500). The problem filter sits below every feature and knows no driver; the module
 * that owns the dependency provides this (the database module, for PostgreSQL's failures).
 */
export abstract class OutageClassifier {
  abstract classify(error: unknown): Outage | null;
}
