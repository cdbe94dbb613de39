import { Injectable } from '@nestjs/common';
import { type Outage, OutageClassifier } from '../common/problems/outage-classifier.js';
import { isDatabaseUnavailable } from './database-unavailable.js';

const DATABASE_OUTAGE: Outage = {
  detail: 'The service cannot reach its database right now; retry after the time given in Retry-After',
  retryAfterSeconds: 5,
};

/** A database that is unreachable, restarting or too slow is an outage, never a bug. */
@Injectable()
export class DatabaseOutageClassifier extends OutageClassifier {
  classify(error: unknown): Outage | null {
    return isDatabaseUnavailable(error) ? DATABASE_OUTAGE : null;
  }
}
