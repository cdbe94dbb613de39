import { z } from 'zod';
import { toUtcInstant } from '../../common/instant.js';
import { CONTAINER_NUMBER_FORMAT, normalizeContainerNumber } from '../../common/iso6346.js';
import {
  CUSTOMS_CHANNELS,
  DECLARATION_TYPES,
  FOLLOW_UP_CODES,
  NUMERO_PATTERN,
  PARTY_ROLES,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../../domain/process.vocabulary.js';
import { OperationsUnavailableError } from '../operations.gateway.js';
import type {
  ChangedProcessesPage,
  OperationsProcess,
  OperationsProcessDetail,
} from '../operations.types.js';
import type { Instant } from '../../domain/time.js';

/**
 * The anti-corruption layer between the operations system's wire format (camelCase JSON mirroring
 * our types) and our types. Nothing upstream is trusted: every field is validated,
 * and what passes is normalised:
 *
 * - Instants must carry an offset (`Z` or `±hh:mm`) and are emitted in one canonical form,
 *   UTC to the whole second: `2026-03-14T12:00:00Z`. One form keeps string comparison and
 *   equality meaningful; truncating (never rounding up) keeps `updatedSince` sync safe, since at
 *   worst an item is fetched again, never skipped.
 * - Dates are strict `YYYY-MM-DD` real calendar dates.
 * - Container numbers are upper-cased with spaces and hyphens removed, then must be 4 letters and
 *   7 digits. The check digit is not enforced: the operations system owns the data, and one
 *   mistyped container must not hide a whole process.
 * - Strings are trimmed; an optional string that is empty after trimming is `null`; an absent
 *   nullable field is `null`. Unknown extra fields are ignored.
 */

/** A numero safe to put into a URL path segment: the contract's characters, and not `.` or `..`. */
export function isAcceptableNumero(value: string): boolean {
  return NUMERO_PATTERN.test(value) && !/^\.+$/.test(value);
}

export function canonicalInstant(value: string): Instant {
  return toUtcInstant(new Date(value));
}

/** Where the mapper reports what it dropped; Nest's `Logger` fits. */
export interface PayloadLogger {
  warn(message: string): void;
}

const trimmed = z.string().trim();
const requiredText = trimmed.min(1);
const optionalText = trimmed
  .nullish()
  .transform((value) => (value === undefined || value === null || value === '' ? null : value));

const instant = z.iso.datetime({ offset: true }).transform(canonicalInstant);
const optionalInstant = instant.nullish().transform((value) => value ?? null);
const optionalDate = z.iso
  .date()
  .nullish()
  .transform((value) => value ?? null);
const optionalNonNegative = z
  .number()
  .nonnegative()
  .nullish()
  .transform((v) => v ?? null);

const numero = trimmed.refine(isAcceptableNumero, 'must be 1-40 characters of [A-Za-z0-9._-]');

const place = z.object({
  code: trimmed.toUpperCase().regex(/^[A-Z]{2}[A-Z0-9]{3}$/, 'must be a UN/LOCODE'),
  name: requiredText,
});

const containerNumber = z
  .string()
  .transform(normalizeContainerNumber)
  .pipe(z.string().regex(CONTAINER_NUMBER_FORMAT, 'must be 4 letters and 7 digits'));

const followUpEvent = z.object({
  id: requiredText,
  code: z.enum(FOLLOW_UP_CODES),
  description: trimmed,
  occurredAt: instant,
  location: place.nullish().transform((value) => value ?? null),
});

const optionalChannel = z
  .enum(CUSTOMS_CHANNELS)
  .nullish()
  .transform((value) => value ?? null);

const ceMercanteNumber = z.string().regex(/^\d{15}$/, 'must be 15 digits');

/**
 * The declaration's number is kept as written (its format is the operations system's business);
 * its type decides which numbers may follow.
 */
const customsDeclaration = z.object({
  declarationType: z.enum(DECLARATION_TYPES),
  declarationNumber: requiredText,
  registeredAt: instant,
  channel: optionalChannel,
  channelAssignedAt: optionalInstant,
  clearedAt: optionalInstant,
  ceMercante: z
    .object({
      master: ceMercanteNumber,
      house: ceMercanteNumber.nullish().transform((value) => value ?? null),
    })
    .nullish()
    .transform((value) => value ?? null),
});

const operationsProcess = z
  .object({
    numero,
    status: z.enum(PROCESS_STATUSES),
    updatedAt: instant,
    type: z.enum(PROCESS_TYPES),
    mode: z.enum(TRANSPORT_MODES),
    customer: z.object({ id: requiredText, name: requiredText }),
    customerReference: optionalText,
    origin: place,
    destination: place,
    shipmentDate: optionalDate,
    eta: optionalDate,
    arrivalDate: optionalDate,
    containers: z.array(containerNumber).transform((numbers) => [...new Set(numbers)]),
    customsChannel: optionalChannel,
    freeTimeEndsAt: optionalDate,
    customs: customsDeclaration.nullish().transform((value) => value ?? null),
    events: z.array(followUpEvent).superRefine((events, context) => {
      const seen = new Set<string>();
      for (const [index, event] of events.entries()) {
        if (seen.has(event.id)) {
          context.addIssue({ code: 'custom', path: [index, 'id'], message: 'duplicate event id' });
        }
        seen.add(event.id);
      }
    }),
  })
  // The list, the detail and the change feed show one channel: a process saying two is refused.
  .refine((process) => process.customs === null || process.customs.channel === process.customsChannel, {
    path: ['customsChannel'],
    message: 'must equal customs.channel',
  }) satisfies z.ZodType<OperationsProcess, unknown>;

const changedProcessesEnvelope = z.object({
  items: z.array(z.unknown()),
  nextCursor: z.string().min(1).max(2048).nullable(),
});

const processDetail = z.object({
  numero,
  parties: z.array(
    z.object({
      role: z.enum(PARTY_ROLES),
      name: requiredText,
      taxId: optionalText,
      country: trimmed
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
        .nullish()
        .transform((value) => value ?? null),
    }),
  ),
  shipment: z.object({
    type: z.enum(PROCESS_TYPES),
    mode: z.enum(TRANSPORT_MODES),
    incoterm: optionalText,
    origin: place,
    destination: place,
    shipmentDate: optionalDate,
    eta: optionalDate,
    arrivalDate: optionalDate,
    bookingNumber: optionalText,
    masterBill: optionalText,
    houseBill: optionalText,
    cargoDescription: optionalText,
    packages: z
      .number()
      .int()
      .nonnegative()
      .nullish()
      .transform((value) => value ?? null),
    grossWeightKg: optionalNonNegative,
    volumeM3: optionalNonNegative,
  }),
  // The key may be absent when the operations system has none.
  containers: z
    .array(
      z.object({
        number: containerNumber,
        type: optionalText,
        sealNumber: optionalText,
        grossWeightKg: optionalNonNegative,
        freeTimeEndsAt: optionalDate,
      }),
    )
    .nullish()
    .transform((value) => value ?? []),
  voyages: z
    .array(
      z.object({
        sequence: z.number().int().positive(),
        vessel: optionalText,
        voyageNumber: optionalText,
        carrier: optionalText,
        loadPort: place,
        dischargePort: place,
        etd: optionalInstant,
        atd: optionalInstant,
        eta: optionalInstant,
        ata: optionalInstant,
      }),
    )
    .nullish()
    .transform((value) => value ?? []),
}) satisfies z.ZodType<OperationsProcessDetail, unknown>;

/**
 * A list page. A malformed envelope makes the whole page unusable; a malformed item is logged
 * (numero and reason, never the payload) and dropped so the rest of the page still syncs.
 */
export function parseChangedProcessesPage(body: unknown, logger: PayloadLogger): ChangedProcessesPage {
  const envelope = changedProcessesEnvelope.safeParse(body);
  if (!envelope.success) {
    throw new OperationsUnavailableError(
      `Operations system sent a malformed process page (${describeIssues(envelope.error)})`,
    );
  }
  const items: OperationsProcess[] = [];
  for (const [index, raw] of envelope.data.items.entries()) {
    const item = operationsProcess.safeParse(raw);
    if (item.success) {
      items.push(item.data);
    } else {
      logger.warn(
        `Skipped upstream process ${describeNumero(raw)} at index ${index}: ${describeIssues(item.error)}`,
      );
    }
  }
  return { items, nextCursor: envelope.data.nextCursor };
}

/** One process's detail; anything malformed makes it unusable. */
export function parseProcessDetail(body: unknown): OperationsProcessDetail {
  const detail = processDetail.safeParse(body);
  if (!detail.success) {
    throw new OperationsUnavailableError(
      `Operations system sent a malformed process detail (${describeIssues(detail.error)})`,
    );
  }
  return detail.data;
}

/** The numero of a raw item, only when it is a sane one (it ends up in logs). */
function describeNumero(raw: unknown): string {
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).numero : undefined;
  return typeof value === 'string' && NUMERO_PATTERN.test(value.trim())
    ? `"${value.trim()}"`
    : '(no valid numero)';
}

/** Paths and messages only: zod's messages name the expectation, not the offending value. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  const more = error.issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}
