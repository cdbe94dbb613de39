import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  type AnyPgColumn,
  date,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { USER_ROLES } from '../domain/authenticated-user.js';
import { CHANGE_KINDS } from '../domain/change-kinds.js';
import { CONTAINER_NUMBER_FORMAT } from '../common/iso6346.js';
import type { CustomsDeclaration } from '../domain/customs-declaration.js';
import {
  CUSTOMS_CHANNEL_FILTERS,
  CUSTOMS_CHANNELS,
  NO_CUSTOMS_CHANNEL,
  NUMERO_PATTERN,
  FOLLOW_UP_CODES,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../domain/process.vocabulary.js';

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
const calendarDate = (name: string) => date(name, { mode: 'string' });
/** `column ~ 'pattern'`, from the same regular expression the application validates with. */
const matches = (column: AnyPgColumn, pattern: RegExp) => sql`${column} ~ ${sql.raw(`'${pattern.source}'`)}`;
/** `column IN (...)` for a closed vocabulary; literals, since CHECK constraints take no parameters. */
const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`${column} IN (${values.map((value) => `'${value}'`).join(', ')})`);

export const customers = pgTable('customers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: USER_ROLES }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_username_key').on(table.username),
    check('users_role_check', oneOf('role', USER_ROLES)),
    check('users_username_length', sql`char_length(${table.username}) BETWEEN 1 AND 128`),
  ],
);

/**
 * A sign-in: what one login starts and its refresh tokens continue, until `expiresAt` at the
 * latest (an absolute lifetime, however often it is refreshed). `endedAt` is set by a logout and
 * by the reuse of a spent refresh token, which ends the whole sign-in.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: instant('started_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    endedAt: instant('ended_at'),
  },
  (table) => [index('sign_ins_user_id_idx').on(table.userId)],
);

/** The refresh tokens of a sign-in, by the SHA-256 of the token (the token itself is never stored). */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    signInId: uuid('sign_in_id')
      .notNull()
      .references(() => signIns.id, { onDelete: 'cascade' }),
    issuedAt: instant('issued_at').notNull(),
    /** Set when the token is exchanged for the next one: presenting it again is a reuse. */
    usedAt: instant('used_at'),
  },
  (table) => [index('refresh_tokens_sign_in_id_idx').on(table.signInId)],
);

export const userCustomers = pgTable(
  'user_customers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (table) => [primaryKey({ columns: [table.userId, table.customerId] })],
);

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

/**
 * Every ETA the service has recorded for a process, oldest first (by `id`): written by sync in the
 * statement that writes the process, whenever the ETA it stores differs from the one stored before
 * (a withdrawn ETA is an entry with a null `eta`). Migration 0018 started it from the ETAs stored then.
 */
export const processEtaHistory = pgTable(
  'process_eta_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    processNumero: text('process_numero')
      .notNull()
      .references(() => processes.numero, { onDelete: 'cascade' }),
    eta: calendarDate('eta'),
    recordedAt: instant('recorded_at').notNull(),
  },
  (table) => [index('process_eta_history_process_idx').on(table.processNumero, table.id)],
);

/**
 * Each process as a list item, the JSON the API sends, rendered by PostgreSQL when sync writes the
 * process (its events, its containers or its customer's name) rather than on every read: a page of
 * 100 items aggregated 2,000 events per request. `process_list_item` (migration 0015) is the one
 * rendering; sync calls it, never writes `body` itself.
 */
export const processListItems = pgTable('process_list_items', {
  numero: text('numero')
    .primaryKey()
    .references(() => processes.numero, { onDelete: 'cascade' }),
  body: text('body').notNull(),
  /** What a page's ETag hashes in place of the item's text (SHA-256 of 100 items took ~1 ms of CPU). */
  digest: text('digest')
    .notNull()
    .generatedAlwaysAs(sql`md5(body)`),
});

/**
 * How many processes each customer has per status, type, mode and customs channel, so that a list
 * filtered by those alone is totalled from a few hundred rows at most instead of counting its
 * processes. Kept exact by statement triggers on `processes` in the same transaction as every
 * write (migrations 0004 and 0008); never written directly.
 */
export const processCounts = pgTable(
  'process_counts',
  {
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    type: text('type', { enum: PROCESS_TYPES }).notNull(),
    mode: text('mode', { enum: TRANSPORT_MODES }).notNull(),
    /** `NONE` for a process without a channel: a key column cannot be null. */
    customsChannel: text('customs_channel', { enum: CUSTOMS_CHANNEL_FILTERS }).notNull(),
    total: integer('total').notNull(),
  },
  (table) => [
    primaryKey({
      columns: [table.customerId, table.status, table.type, table.mode, table.customsChannel],
    }),
  ],
);

/**
 * The same totals per UTC day of `updated_at`, so that a list filtered by an updated range (and
 * at most status) sums whole days from here and counts only the range's partial first and last
 * days in `processes`. Kept by the same kind of triggers (migration 0006); never written directly.
 */
export const processDailyCounts = pgTable(
  'process_daily_counts',
  {
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    day: calendarDate('day').notNull(),
    total: integer('total').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.customerId, table.status, table.day] }),
    // Staff lists: every customer's totals over a range of days.
    index('process_daily_counts_day_idx').on(table.day, table.status),
  ],
);

export const processContainers = pgTable(
  'process_containers',
  {
    processNumero: text('process_numero')
      .notNull()
      .references(() => processes.numero, { onDelete: 'cascade' }),
    containerNumber: text('container_number').notNull(),
    /** Keeps the operations system's order for `summary.containers`. */
    position: smallint('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.processNumero, table.containerNumber] }),
    index('process_containers_container_number_idx').on(table.containerNumber),
    check('process_containers_number_format', matches(table.containerNumber, CONTAINER_NUMBER_FORMAT)),
  ],
);

export const followUpEvents = pgTable(
  'follow_up_events',
  {
    processNumero: text('process_numero')
      .notNull()
      .references(() => processes.numero, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    code: text('code', { enum: FOLLOW_UP_CODES }).notNull(),
    description: text('description').notNull(),
    occurredAt: instant('occurred_at').notNull(),
    locationCode: text('location_code'),
    locationName: text('location_name'),
  },
  (table) => [
    primaryKey({ columns: [table.processNumero, table.id] }),
    index('follow_up_events_timeline_idx').on(table.processNumero, table.occurredAt, table.id),
    check('follow_up_events_code_check', oneOf('code', FOLLOW_UP_CODES)),
    check(
      'follow_up_events_location_check',
      sql`(${table.locationCode} IS NULL) = (${table.locationName} IS NULL)`,
    ),
  ],
);

/** Progress of each sync stream: the watermark incremental sync resumes from, and its outcome. */
export const syncState = pgTable('sync_state', {
  stream: text('stream').primaryKey(),
  watermark: instant('watermark'),
  lastStartedAt: instant('last_started_at'),
  lastSucceededAt: instant('last_succeeded_at'),
  lastError: text('last_error'),
  lastProcessedCount: integer('last_processed_count'),
  /** A pass in progress (null when none): where the next run resumes, so a failure mid-pass loses no work. */
  passCursor: text('pass_cursor'),
  passUpdatedSince: instant('pass_updated_since'),
  /** The greatest `updatedAt` the pass in progress has seen; becomes the watermark when it completes. */
  passHighWater: instant('pass_high_water'),
});

/**
 * The change feed: what sync changed in each process, in the order it committed. `position` is
 * gap-free and assigned under the row lock of `change_feed_head`, which each writing transaction
 * holds until it commits, so a reader never sees a position after one that commits later.
 */
export const processChanges = pgTable(
  'process_changes',
  {
    position: bigint('position', { mode: 'number' }).primaryKey(),
    recordedAt: instant('recorded_at').notNull(),
    customerId: text('customer_id').notNull(),
    numero: text('numero').notNull(),
    kind: text('kind', { enum: CHANGE_KINDS }).notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    updatedAt: instant('updated_at').notNull(),
    /**
     * What the kind adds: `previousStatus`, the `follow` event, or `customsChannel`. `json`, not
     * `jsonb`: kept as the recorder wrote it (compact) and copied into `body` as it is, never
     * queried inside.
     */
    details: json('details').$type<Record<string, unknown>>(),
    /**
     * The change as the feed sends it, cursor included, rendered once when it is recorded (by
     * `change_json`, migration 0011) rather than on every read: a page is the join of these.
     */
    body: text('body')
      .notNull()
      .generatedAlwaysAs(sql`change_json(position, recorded_at, kind, numero, status, updated_at, details)`),
  },
  (table) => [
    // A customer's feed from a position, read in order from the index at any depth.
    index('process_changes_customer_position_idx').on(table.customerId, table.position),
    // `since` and retention; recorded_at grows with position, so the first row here is the earliest.
    index('process_changes_recorded_at_idx').on(table.recordedAt, table.position),
    check('process_changes_kind_check', oneOf('kind', CHANGE_KINDS)),
  ],
);

/** The feed's one-row head: the last position given out and the last one retention deleted. */
export const changeFeedHead = pgTable(
  'change_feed_head',
  {
    id: boolean('id').primaryKey().default(true),
    lastPosition: bigint('last_position', { mode: 'number' }).notNull().default(0),
    lastRecordedAt: instant('last_recorded_at'),
    prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull().default(0),
  },
  (table) => [check('change_feed_head_single_row', sql`${table.id}`)],
);

export const WEBHOOK_STATUSES = ['ACTIVE', 'PAUSED', 'DISABLED'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/**
 * A user's webhook subscription: where the feed is delivered, what of it (visibility fixed at
 * creation, kinds), and how far delivery has got. `position` is the last change delivered (or
 * passed over as not for this subscription); the next attempt of the change after it is due at
 * `next_attempt_at` (null: now), after `failed_attempts` failures. One instance at a time works a
 * subscription: the one whose lease has not expired.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** The change kinds delivered; null: every kind, those added later included. */
    kinds: json('kinds').$type<string[]>(),
    /** The customers whose changes are delivered, as the creator saw them; null: every customer (staff). */
    customerIds: json('customer_ids').$type<string[]>(),
    status: text('status', { enum: WEBHOOK_STATUSES }).notNull().default('ACTIVE'),
    disabledReason: text('disabled_reason'),
    position: bigint('position', { mode: 'number' }).notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    /** The signing secret, AES-256-GCM encrypted with the configured key. */
    secret: text('secret').notNull(),
    /**
     * Where the release before `webhook_retired_secrets` kept the secret a rotation replaced: no
     * longer read, kept so that release works on this schema during a rolling upgrade; to drop in a
     * later release.
     */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: instant('previous_secret_expires_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: instant('lease_expires_at'),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
  },
  (table) => [
    index('webhook_subscriptions_owner_idx').on(table.ownerId, table.createdAt),
    // The deliverers' claim: active subscriptions by when they are next due.
    index('webhook_subscriptions_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'ACTIVE'`),
    check('webhook_subscriptions_status_check', oneOf('status', WEBHOOK_STATUSES)),
    check('webhook_subscriptions_failed_attempts_check', sql`${table.failedAttempts} >= 0`),
  ],
);

/** Secrets a rotation replaced, each still signing until its `expires_at` (encrypted as `secret` is). */
export const webhookRetiredSecrets = pgTable(
  'webhook_retired_secrets',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    expiresAt: instant('expires_at').notNull(),
  },
  (table) => [index('webhook_retired_secrets_subscription_idx').on(table.subscriptionId, table.expiresAt)],
);

/** Every attempt to deliver a change to a subscription, for its owner to see what happened. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    /** The change's cursor: the `webhook-id` sent. */
    messageId: text('message_id').notNull(),
    /** A change's kind, or the test message's (`WEBHOOK_TEST`). */
    kind: text('kind').notNull(),
    attempt: integer('attempt').notNull(),
    attemptedAt: instant('attempted_at').notNull(),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    nextAttemptAt: instant('next_attempt_at'),
  },
  (table) => [
    index('webhook_deliveries_subscription_idx').on(table.subscriptionId, table.id.desc()),
    index('webhook_deliveries_attempted_at_idx').on(table.attemptedAt),
  ],
);

/**
 * A client application: a user's other system (an ERP, a BI job) signing in with OAuth 2.0 client
 * credentials, with the scopes it was given and the visibility its creator had at creation. Its
 * secret is stored only as a SHA-256 (`secret_hash`); the one it replaced keeps working until
 * `previous_secret_expires_at`.
 */
export const clientApplications = pgTable(
  'client_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    scopes: json('scopes').$type<string[]>().notNull(),
    /** The customers its tokens may see, as the creator saw them; null: every customer (staff). */
    customerIds: json('customer_ids').$type<string[]>(),
    secretHash: text('secret_hash').notNull(),
    previousSecretHash: text('previous_secret_hash'),
    previousSecretExpiresAt: instant('previous_secret_expires_at'),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
    lastUsedAt: instant('last_used_at'),
  },
  (table) => [
    uniqueIndex('client_applications_client_id_key').on(table.clientId),
    index('client_applications_owner_idx').on(table.ownerId, table.createdAt),
  ],
);
