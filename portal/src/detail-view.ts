import type { ProcessDetail } from './api';
import { formatDate, formatInstant, h } from './dom';
import { renderTimeline } from './timeline';

type Row = [label: string, value: string | number | null | undefined];

function facts(rows: Row[]): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    ...rows.flatMap(([label, value]) => [
      h('dt', {}, label),
      h('dd', {}, value === null || value === undefined || value === '' ? '—' : String(value)),
    ]),
  );
}

/**
 * A table in a box that scrolls sideways on a narrow screen: a named region that takes focus, so a
 * keyboard can scroll it. While part of it is out of view, its frame says on which side
 * (`data-overflow`): a shadow on that edge and a line of text show that it scrolls.
 */
function table(caption: string, headings: string[], rows: Array<Array<string | number | null>>): HTMLElement {
  const box = h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
      h(
        'tbody',
        {},
        ...rows.map((cells) =>
          h('tr', {}, ...cells.map((cell) => h('td', {}, cell === null ? '—' : String(cell)))),
        ),
      ),
    ),
  );
  const frame = h(
    'div',
    { class: 'table-frame' },
    box,
    h('p', { class: 'scroll-cue', 'aria-hidden': 'true' }, 'Scroll sideways for more ⇆'),
  );
  const showOverflow = () => {
    const hiddenLeft = box.scrollLeft > 0;
    const hiddenRight = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    frame.dataset.overflow =
      [hiddenLeft ? 'left' : '', hiddenRight ? 'right' : ''].join(' ').trim() || 'none';
  };
  box.addEventListener('scroll', showOverflow, { passive: true });
  new ResizeObserver(showOverflow).observe(box);
  return frame;
}

/** The detail panel's content: parties, shipment, containers, voyages and the whole follow-up. */
export function renderDetail(detail: ProcessDetail, close: () => void): HTMLElement[] {
  const { shipment } = detail;
  const sections: HTMLElement[] = [
    h(
      'div',
      { class: 'detail-head' },
      h('h2', { id: 'detail-heading' }, detail.numero),
      h('button', { type: 'button', class: 'secondary', onclick: close }, 'Close'),
    ),
    h(
      'p',
      { class: 'meta' },
      `${detail.status.replace(/_/g, ' ')} · operations data ${detail.enrichment.status.toLowerCase()} as of ${formatInstant(detail.enrichment.fetchedAt)}`,
    ),
    h('h3', {}, 'Shipment'),
    facts([
      ['Type', `${shipment.type} · ${shipment.mode}`],
      [
        'Route',
        `${shipment.origin.name} (${shipment.origin.code}) → ${shipment.destination.name} (${shipment.destination.code})`,
      ],
      ['Incoterm', shipment.incoterm],
      ['Shipped', formatDate(shipment.shipmentDate)],
      ['ETA', formatDate(shipment.eta)],
      ['First ETA', formatDate(detail.summary.originalEta)],
      ['Arrived', formatDate(shipment.arrivalDate)],
      ['Booking', shipment.bookingNumber],
      ['Master bill', shipment.masterBill],
      ['House bill', shipment.houseBill],
      ['Cargo', shipment.cargoDescription],
      ['Packages', shipment.packages],
      ['Gross weight (kg)', shipment.grossWeightKg],
      ['Volume (m³)', shipment.volumeM3],
    ]),
    table(
      'Parties',
      ['Role', 'Name', 'Tax id', 'Country'],
      detail.parties.map((party) => [
        party.role.replace(/_/g, ' ').toLowerCase(),
        party.name,
        party.taxId,
        party.country,
      ]),
    ),
  ];
  if (detail.containers !== undefined) {
    sections.push(
      table(
        'Containers',
        ['Number', 'Type', 'Seal', 'Gross weight (kg)'],
        detail.containers.map((container) => [
          container.number,
          container.type,
          container.sealNumber,
          container.grossWeightKg,
        ]),
      ),
    );
  }
  if (detail.voyages !== undefined) {
    sections.push(
      table(
        'Voyages',
        ['#', 'Vessel', 'Voyage', 'Carrier', 'From', 'To', 'ETD', 'ATD', 'ETA', 'ATA'],
        detail.voyages.map((voyage) => [
          voyage.sequence,
          voyage.vessel,
          voyage.voyageNumber,
          voyage.carrier,
          voyage.loadPort.name,
          voyage.dischargePort.name,
          formatInstant(voyage.etd),
          formatInstant(voyage.atd),
          formatInstant(voyage.eta),
          formatInstant(voyage.ata),
        ]),
      ),
    );
  }
  if (detail.etaHistory.length > 0) {
    sections.push(
      table(
        'ETA history',
        ['ETA', 'Recorded'],
        detail.etaHistory.map((record) => [formatDate(record.eta), formatInstant(record.recordedAt)]),
      ),
    );
  }
  if (detail.customs !== undefined) {
    const { customs } = detail;
    sections.push(
      h('h3', {}, 'Customs'),
      facts([
        ['Declaration', `${customs.declarationType} ${customs.declarationNumber}`],
        ['Registered', formatInstant(customs.registeredAt)],
        ['Channel', customs.channel === null ? 'not assigned yet' : customs.channel.toLowerCase()],
        ['Channel assigned', formatInstant(customs.channelAssignedAt)],
        ['Cleared', formatInstant(customs.clearedAt)],
        [
          'CE-Mercante',
          customs.ceMercante === null
            ? null
            : `master ${customs.ceMercante.master}, house ${customs.ceMercante.house ?? '—'}`,
        ],
      ]),
    );
  }
  sections.push(h('h3', {}, 'Follow-up'), renderTimeline(detail));
  return sections;
}
