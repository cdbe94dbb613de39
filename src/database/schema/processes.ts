import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CustomsDeclaration } from '../../domain/customs-declaration.js';
import {
  CUSTOMS_CHANNELS,
  NO_CUSTOMS_CHANNEL,
  NUMERO_PATTERN,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../../domain/process.vocabulary.js';
import { instant, calendarDate, matches, oneOf } from './columns.js';
import { customers } from './customers.js';

export const processes = pgTable(
  'processes',
  {
    numero: text('numero').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    type: text('type', { enum: PROCESS_TYPES }).notNull(),
    mode: text('mode', { enum: TRANSPORT_MODES }).notNull(),
    customerReference: text('customer_reference'),
    originCode: text('origin_code').notNull(),
    originName: text('origin_name').notNull(),
    destinationCode: text('destination_code').notNull(),
    destinationName: text('destination_name').notNull(),
    shipmentDate: calendarDate('shipment_date'),
    eta: calendarDate('eta'),
    /**
     * The first ETA the service saw, once sync has written the process since migration 0018; null
     * before then, when the stored `eta` is still the first one (the history starts from it), or
     * while no ETA was ever known. Read as `coalesce(original_eta, eta)`.
     */
    originalEta: calendarDate('original_eta'),
    arrivalDate: calendarDate('arrival_date'),
    customsChannel: text('customs_channel', { enum: CUSTOMS_CHANNELS }),
    /** The customs declaration as the operations system sent it; null before one is registered. */
    customs: jsonb('customs').$type<CustomsDeclaration>(),
    freeTimeEndsAt: calendarDate('free_time_ends_at'),
    followCount: integer('follow_count').notNull(),
    /** The operations system's last change of the process (the API's `updatedAt`). */
    updatedAt: instant('updated_at').notNull(),
    syncedAt: instant('synced_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('processes_numero_ci_key').on(sql`lower(${table.numero})`),
    // The list's visibility filter and sort orders, each ending in the numero tie-break.
    index('processes_customer_updated_idx').on(table.customerId, table.updatedAt.desc(), table.numero),
    index('processes_updated_idx').on(table.updatedAt.desc(), table.numero),
    index('processes_customer_shipment_idx').on(table.customerId, table.shipmentDate, table.numero),
    index('processes_shipment_idx').on(table.shipmentDate, table.numero),
    // Nulls last both ways: a backward scan of the ascending index would put them first.
    index('processes_customer_shipment_desc_idx').on(
      table.customerId,
      table.shipmentDate.desc().nullsLast(),
      table.numero,
    ),
    index('processes_shipment_desc_idx').on(table.shipmentDate.desc().nullsLast(), table.numero),
    index('processes_status_updated_idx').on(table.status, table.updatedAt.desc(), table.numero),
    index('processes_customer_numero_idx').on(table.customerId, table.numero),
    index('processes_customer_status_updated_idx').on(
      table.customerId,
      table.status,
      table.updatedAt.desc(),
      table.numero,
    ),
    // The customs channel filter (a channel's processes are few; NONE stands for no channel).
    index('processes_customer_channel_updated_idx').on(
      table.customerId,
      sql`coalesce(${table.customsChannel}, ${sql.raw(`'${NO_CUSTOMS_CHANNEL}'`)})`,
      table.updatedAt.desc(),
      table.numero,
    ),
    // An importer's two questions (what arrives when, whose free time ends when), filtered and
    // sorted; free time and delays are set on few processes, so their indexes hold only those.
    index('processes_customer_eta_idx').on(table.customerId, table.eta, table.numero),
    index('processes_eta_idx').on(table.eta, table.numero),
    index('processes_customer_free_time_idx')
      .on(table.customerId, table.freeTimeEndsAt, table.numero)
      .where(sql`${table.freeTimeEndsAt} IS NOT NULL`),
    index('processes_free_time_idx')
      .on(table.freeTimeEndsAt, table.numero)
      .where(sql`${table.freeTimeEndsAt} IS NOT NULL`),
    index('processes_customer_eta_delay_idx')
      .on(table.customerId, sql`(${table.eta} - ${table.originalEta})`)
      .where(sql`${table.eta} > ${table.originalEta}`),
    index('processes_eta_delay_idx')
      .on(sql`(${table.eta} - ${table.originalEta})`)
      .where(sql`${table.eta} > ${table.originalEta}`),
    check('processes_status_check', oneOf('status', PROCESS_STATUSES)),
    check('processes_type_check', oneOf('type', PROCESS_TYPES)),
    check('processes_mode_check', oneOf('mode', TRANSPORT_MODES)),
    check('processes_customs_channel_check', oneOf('customs_channel', CUSTOMS_CHANNELS)),
    check('processes_follow_count_check', sql`${table.followCount} >= 0`),
    check('processes_numero_format', matches(table.numero, NUMERO_PATTERN)),
  ],
);
