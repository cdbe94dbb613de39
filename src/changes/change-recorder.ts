import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../database/sql-rows.js';
import type { OperationsProcess } from '../operations/operations.types.js';
import { changesBetween, type ChangeDraft, type StoredProcess } from './process-changes.js';

/** The channel sync notifies at commit with the feed's last position. */
export const CHANGES_CHANNEL = 'process_changes';

/**
 * Records, inside sync's page transaction, what the page changes: it reads the stored copies
 * before they are overwritten and appends the differences to the feed after.
 */
@Injectable()
export class ChangeRecorder {
  /** The stored copies of these processes, as {@link changesBetween} compares them. */
  async storedBefore(tx: Executor, numeros: string[]): Promise<Map<string, StoredProcess>> {
    if (numeros.length === 0) return new Map();
    const rows = await rowsOf<{ state: StoredProcess }>(
      tx,
      sql`
      SELECT json_build_object(
               'numero', p.numero, 'customerId', p.customer_id, 'status', p.status, 'type', p.type,
               'mode', p.mode, 'customerReference', p.customer_reference,
               'origin', json_build_object('code', p.origin_code, 'name', p.origin_name),
               'destination', json_build_object('code', p.destination_code, 'name', p.destination_name),
               'shipmentDate', p.shipment_date, 'eta', p.eta,
               'originalEta', coalesce(p.original_eta, p.eta), 'arrivalDate', p.arrival_date,
               'customsChannel', p.customs_channel, 'customs', p.customs,
               'freeTimeEndsAt', p.free_time_ends_at, 'updatedAt', p.updated_at,
               'containers', coalesce((SELECT json_agg(c.container_number ORDER BY c.position)
                                         FROM process_containers c WHERE c.process_numero = p.numero), '[]'),
               'events', coalesce((SELECT json_agg(json_build_object(
                                            'id', e.id, 'code', e.code, 'description', e.description,
                                            'occurredAt', e.occurred_at,
                                            'location', CASE WHEN e.location_code IS NULL THEN NULL
                                                        ELSE json_build_object('code', e.location_code,
                                                                               'name', e.location_name) END))
                                     FROM follow_up_events e WHERE e.process_numero = p.numero), '[]')
             ) AS state
        FROM processes p
       WHERE p.numero IN (SELECT json_array_elements_text(${JSON.stringify(numeros)}::json))`,
    );
    return new Map(rows.map(({ state }) => [state.numero, state]));
  }

  /** Appends what writing `written` over their `stored` copies changes; returns the changes. */
  async append(
    tx: Executor,
    stored: Map<string, StoredProcess>,
    written: OperationsProcess[],
  ): Promise<ChangeDraft[]> {
    const drafts = written.flatMap((process) => changesBetween(stored.get(process.numero), process));
    await this.appendDrafts(tx, drafts);
    return drafts;
  }

  /**
   * Appends changes in order, and tells every listening instance at commit. Moving the head row
   * locks it until this transaction ends: positions are handed out and committed in one order,
   * and `recorded_at` never goes backwards along them.
   */
  async appendDrafts(tx: Executor, drafts: ChangeDraft[]): Promise<void> {
    if (drafts.length === 0) return;
    const rows = drafts.map((draft) => ({
      customer_id: draft.customerId,
      numero: draft.numero,
      kind: draft.kind,
      status: draft.status,
      updated_at: draft.updatedAt,
      details: draft.details,
    }));
    const [head] = await rowsOf<{ lastPosition: string }>(
      tx,
      sql`
      WITH head AS (
        UPDATE change_feed_head
           SET last_position = last_position + ${drafts.length},
               last_recorded_at = greatest(clock_timestamp(), last_recorded_at)
         RETURNING last_position, last_recorded_at
      ), appended AS (
        INSERT INTO process_changes (position, recorded_at, customer_id, numero, kind, status, updated_at, details)
        SELECT head.last_position - ${drafts.length} + d.ordinal, head.last_recorded_at, d.customer_id,
               d.numero, d.kind, d.status, d.updated_at, d.details
          FROM head,
               ROWS FROM (json_to_recordset(${JSON.stringify(rows)}::json)
                            AS (customer_id text, numero text, kind text, status text,
                                updated_at timestamptz, details json))
               WITH ORDINALITY AS d(customer_id, numero, kind, status, updated_at, details, ordinal)
      )
      SELECT last_position::text AS "lastPosition" FROM head`,
    );
    await tx.execute(sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${head?.lastPosition ?? ''})`);
  }
}
