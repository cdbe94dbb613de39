import type { FollowUpEvent, ProcessSummary } from './api';
import { h } from './dom';
import { formatDate, formatInstant } from './i18n/format';
import { t } from './i18n/messages';

/** How each follow-up code is drawn: a symbol that reads without colour (its name is the catalogue's). */
const EVENT_SYMBOLS: Record<FollowUpEvent['code'], string> = {
  PROCESS_OPENED: '◆',
  BOOKING_CONFIRMED: '✓',
  CARGO_RECEIVED: '▣',
  GATE_IN: '⇥',
  LOADED: '⤒',
  DEPARTED: '➚',
  TRANSSHIPMENT: '⇄',
  ARRIVED: '⚓',
  DISCHARGED: '⤓',
  DOCUMENTS_RECEIVED: '▤',
  CUSTOMS_DECLARATION_REGISTERED: '§',
  CUSTOMS_CHANNEL_ASSIGNED: '◐',
  CUSTOMS_CLEARED: '✔',
  GATE_OUT: '⇤',
  DELIVERED: '★',
  CANCELLED: '✕',
  NOTE: '•',
};

function eventLabel(code: FollowUpEvent['code']): string {
  return t().eventCodes[code];
}

/** Centre to centre, markers closer than this (px) would overlap: the widest is 2.2rem. */
const MIN_MARKER_GAP_PX = 38;

interface PlacedEvent {
  marker: HTMLElement;
  event: FollowUpEvent;
  fraction: number;
}

/**
 * Draws events too close to tell apart at the track's current width as one marker with their
 * count (placed at the first of them, taking the last event's highlight when it holds it), so
 * that no two markers overlap; again whenever the track's width changes.
 */
function groupCloseMarkers(
  track: HTMLElement,
  placed: PlacedEvent[],
  describe: (events: FollowUpEvent[]) => () => void,
): void {
  const regroup = () => {
    for (const group of track.querySelectorAll('.timeline-group')) group.remove();
    const width = track.clientWidth;
    if (width === 0) return;
    let start = 0;
    while (start < placed.length) {
      const anchor = placed[start]!;
      let end = start + 1;
      while (end < placed.length && (placed[end]!.fraction - anchor.fraction) * width < MIN_MARKER_GAP_PX)
        end++;
      const members = placed.slice(start, end);
      for (const member of members) member.marker.hidden = members.length > 1;
      if (members.length > 1) {
        const holdsLast = members.some((member) => member.marker.classList.contains('last'));
        const first = members[0]!.event;
        const last = members[members.length - 1]!.event;
        const label = t().eventGroup(
          members.length,
          formatInstant(first.occurredAt),
          formatInstant(last.occurredAt),
        );
        const group = h(
          'button',
          {
            type: 'button',
            role: 'listitem',
            class: `timeline-event timeline-group${holdsLast ? ' last' : ''}`,
            title: label,
            'aria-label': label,
            'aria-current': holdsLast ? 'step' : undefined,
            onclick: describe(members.map((member) => member.event)),
            onfocus: describe(members.map((member) => member.event)),
            onmouseenter: describe(members.map((member) => member.event)),
          },
          h('span', { class: 'symbol', 'aria-hidden': 'true' }, String(members.length)),
          holdsLast
            ? (track.querySelector('.timeline-event.last .event-label')?.cloneNode(true) ?? null)
            : null,
        );
        group.style.left = anchor.marker.style.left;
        track.append(group);
      }
      start = end;
    }
  };
  new ResizeObserver(regroup).observe(track);
}

/**
 * A process's follow-up as a horizontal timeline: each event placed by its time (events too close
 * to tell apart grouped, with their count), the last one highlighted, the ETA and the end of free
 * time marked. Every marker is a button whose description shows on hover, focus or
 * click; the full list sits in a disclosure below for screen readers and small screens.
 */
export function renderTimeline(process: ProcessSummary): HTMLElement {
  const events = process.follow;
  const eta = process.summary.eta ? Date.parse(`${process.summary.eta}T00:00:00Z`) : null;
  // The end of the last free day: demurrage starts after it.
  const freeTime = process.summary.freeTimeEndsAt
    ? Date.parse(`${process.summary.freeTimeEndsAt}T23:59:59Z`)
    : null;
  const times = events.map((event) => Date.parse(event.occurredAt));
  const start = Math.min(...times, eta ?? Infinity, freeTime ?? Infinity);
  const end = Math.max(...times, eta ?? -Infinity, freeTime ?? -Infinity);
  const span = Math.max(end - start, 1);
  const fraction = (time: number) => (time - start) / span;
  // Set through the CSSOM, which the page's Content-Security-Policy does not restrict.
  const placed = <T extends HTMLElement>(element: T, time: number): T => {
    element.style.left = `${(fraction(time) * 100).toFixed(2)}%`;
    return element;
  };
  /** Labels in the track's second half read toward its start, so that none runs past its end. */
  const side = (time: number) => (fraction(time) > 0.5 ? ' toward-start' : '');
  const caption = h('p', { class: 'timeline-caption', 'aria-live': 'polite' });
  const show = (event: FollowUpEvent) => () => {
    caption.textContent = `${formatInstant(event.occurredAt)} · ${eventLabel(event.code)}: ${event.description}`;
  };

  const describeAll = (grouped: FollowUpEvent[]) => () => {
    caption.textContent = grouped
      .map((event) => `${formatInstant(event.occurredAt)} · ${eventLabel(event.code)}: ${event.description}`)
      .join(' — ');
  };

  const track = h('div', {
    class: 'timeline-track',
    role: 'list',
    'aria-label': t().followUpOf(process.numero),
  });
  const placedEvents: PlacedEvent[] = [];
  events.forEach((event, index) => {
    const time = times[index] ?? start;
    const isLast = event.id === process.lastFollow?.id;
    const summary = `${eventLabel(event.code)}, ${formatInstant(event.occurredAt)}: ${event.description}`;
    const marker = placed(
      h(
        'button',
        {
          type: 'button',
          role: 'listitem',
          class: `timeline-event code-${event.code.toLowerCase()}${isLast ? ' last' : ''}`,
          title: summary,
          'aria-label': summary,
          'aria-current': isLast ? 'step' : undefined,
          onclick: show(event),
          onfocus: show(event),
          onmouseenter: show(event),
        },
        h('span', { class: 'symbol', 'aria-hidden': 'true' }, EVENT_SYMBOLS[event.code]),
        isLast ? h('span', { class: `event-label${side(time)}` }, eventLabel(event.code)) : null,
      ),
      time,
    );
    track.append(marker);
    placedEvents.push({ marker, event, fraction: fraction(time) });
  });
  groupCloseMarkers(track, placedEvents, describeAll);
  if (eta !== null) {
    const label = t().etaMarker(formatDate(process.summary.eta));
    track.append(placed(h('span', { class: `timeline-marker eta${side(eta)}`, title: label }, label), eta));
  }
  if (freeTime !== null) {
    const label = t().freeTimeUntil(formatDate(process.summary.freeTimeEndsAt));
    track.append(
      placed(
        h('span', { class: `timeline-marker free-time${side(freeTime)}`, title: label }, label),
        freeTime,
      ),
    );
  }

  const list = h(
    'ol',
    { class: 'timeline-list' },
    ...events.map((event) =>
      h(
        'li',
        { class: event.id === process.lastFollow?.id ? 'last' : undefined },
        h('time', { datetime: event.occurredAt }, formatInstant(event.occurredAt)),
        ' ',
        h('strong', {}, eventLabel(event.code)),
        event.location ? ` · ${event.location.name} (${event.location.code})` : '',
        h('br'),
        h('span', { lang: 'pt-BR' }, event.description),
      ),
    ),
  );

  return h(
    'div',
    { class: 'timeline' },
    h('div', { class: 'timeline-scroll' }, track),
    caption,
    h('details', {}, h('summary', {}, t().allEvents(events.length)), list),
  );
}
