import type { ProcessStatus } from '../upstream/upstream-api.js';
import { milestonesOf, NEVER, type PlannedEvent, type ProcessPlan } from '../simulation/process-plan.js';

/**
 * Edits of one process's plan, for the control API. A plan is a timeline in whole minutes; the
 * process is shown as it stands at its `shownAt` minute. Every edit keeps the plan's invariants:
 * events sorted with distinct minutes, milestones derived from the events, and nothing already
 * shown moved (only the future is re-timed).
 */

/** A deep enough copy to edit: events, legs and position reports are rewritten, the rest shared. */
export function copyPlan(plan: ProcessPlan): ProcessPlan {
  return {
    ...plan,
    events: plan.events.map((event) => ({ ...event })),
    legs: plan.legs.map((leg) => ({ ...leg })),
    etaRevisions: plan.etaRevisions.map((revision) => ({ ...revision })),
    positionReports: plan.positionReports === null ? null : { ...plan.positionReports },
  };
}

/**
 * Re-times every minute after `shownAt` with `retime` (events at `eventAt` when given, by
 * position), keeping events strictly ascending, then re-derives the milestones.
 */
function retimeFuture(
  plan: ProcessPlan,
  shownAt: number,
  retime: (minute: number) => number,
  eventAt: (position: number, minute: number) => number = (_, minute) => retime(minute),
): void {
  const map = (minute: number): number => (minute > shownAt && minute !== NEVER ? retime(minute) : minute);
  let previous = -Infinity;
  plan.events.forEach((event, position) => {
    const at = Math.max(event.at > shownAt ? eventAt(position, event.at) : event.at, previous + 1);
    event.until = event.until === NEVER ? NEVER : Math.max(map(event.until), at + 1);
    event.at = at;
    previous = at;
  });
  for (const leg of plan.legs) {
    leg.etd = map(leg.etd);
    leg.atd = map(leg.atd);
    leg.etaPlanned = map(leg.etaPlanned);
    leg.ata = map(leg.ata);
  }
  if (plan.positionReports !== null) {
    plan.positionReports.from = map(plan.positionReports.from);
    plan.positionReports.until = map(plan.positionReports.until);
  }
  plan.milestones = milestonesOf(plan.events, plan.legs.length);
}

/**
 * Makes the future event at `position` happen now: it moves to `now` (or, when the minutes since
 * `shownAt` are too few, just after the events it brings along), the events before it are spread
 * evenly in between, and everything after it keeps its spacing. Returns the minute to show the
 * plan at: the event's new minute.
 */
export function bringForward(plan: ProcessPlan, position: number, shownAt: number, now: number): number {
  const target = plan.events[position];
  if (target === undefined || target.at <= shownAt) {
    throw new RangeError(`event ${position} is not in the future of minute ${shownAt}`);
  }
  const firstBetween = plan.events.findIndex((event) => event.at > shownAt);
  const between = position - firstBetween;
  const landing = Math.max(now, shownAt + between + 1);
  const from = target.at;
  if (landing >= from) return from;
  const span = landing - shownAt;
  retimeFuture(
    plan,
    shownAt,
    (minute) =>
      minute >= from
        ? minute - (from - landing)
        : shownAt + Math.max(1, Math.floor(((minute - shownAt) * span) / (from - shownAt))),
    (eventPosition, minute) =>
      eventPosition < position
        ? shownAt + Math.floor(((eventPosition - firstBetween + 1) * span) / (between + 1))
        : minute - (from - landing),
  );
  return target.at;
}

/** Moves the whole future by `minutes` (later when positive), never before `shownAt`. */
export function shiftFuture(plan: ProcessPlan, shownAt: number, minutes: number): void {
  retimeFuture(plan, shownAt, (minute) => Math.max(shownAt + 1, minute + minutes));
}

/**
 * The ETA in force from `shownAt` on becomes `eta`: the revisions still to come are dropped (their
 * notes with them), the ETA in force, the last revision announced or the first ETA, changes, and
 * the ship's position reports no longer estimate another.
 */
export function setEta(plan: ProcessPlan, shownAt: number, eta: number): void {
  plan.events = plan.events.filter((event) => event.kind !== 'ETA_REVISED' || event.at <= shownAt);
  if (plan.positionReports !== null) plan.positionReports.estimatesEta = false;
  plan.milestones = milestonesOf(plan.events, plan.legs.length);
  const lastLeg = plan.legs[plan.legs.length - 1];
  if (lastLeg === undefined) return;
  const announced = plan.milestones.etaRevised.flatMap((at, k) => (at <= shownAt ? [k] : []));
  const inForce = plan.etaRevisions[announced[announced.length - 1] ?? -1];
  if (inForce === undefined) lastLeg.etaPlanned = eta;
  else inForce.eta = eta;
  lastLeg.ata = eta;
}

/** The position of the first future event that moves the status on from `current`, or null when none is left. */
export function nextStatusEvent(plan: ProcessPlan, shownAt: number, current: ProcessStatus): number | null {
  const position = plan.events.findIndex(
    (event) => event.at > shownAt && event.status !== null && event.status !== current,
  );
  return position < 0 ? null : position;
}

/** Ends the plan with a cancellation at `at`: the future is dropped. */
export function cancelPlan(plan: ProcessPlan, shownAt: number, at: number, reason: number): void {
  const kept: PlannedEvent[] = plan.events.filter((event) => event.at <= shownAt);
  kept.push({ kind: 'CANCELLED', at, until: NEVER, status: 'CANCELLED', ref: reason });
  plan.events = kept;
  if (plan.positionReports !== null) {
    plan.positionReports.until = Math.min(plan.positionReports.until, at);
  }
  plan.milestones = milestonesOf(plan.events, plan.legs.length);
}
