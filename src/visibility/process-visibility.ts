import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser, Visibility } from '../domain/authenticated-user.js';

/**
 * The one answer to "which processes may this caller see": the list, the detail, the change feed
 * and its streams, webhooks and client applications all ask here. Repositories turn the answer
 * into SQL (a caller's customers are a WHERE of every statement); nothing else decides it.
 */
@Injectable()
export class ProcessVisibility {
  /** Staff see every customer's processes; anyone else their own customers' only. */
  of(caller: AuthenticatedUser): Visibility {
    return { customerIds: caller.role === 'staff' ? null : caller.customerIds };
  }

  /** Whether the processes (and changes) of `customerId` are visible. */
  includes(visibility: Visibility, customerId: string): boolean {
    return visibility.customerIds === null || visibility.customerIds.includes(customerId);
  }

  /** The visible ones of `items`, in their order: `items` itself when every customer is visible. */
  filter<Item extends { customerId: string }>(visibility: Visibility, items: Item[]): Item[] {
    return visibility.customerIds === null
      ? items
      : items.filter(({ customerId }) => this.includes(visibility, customerId));
  }
}
