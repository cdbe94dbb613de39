import type { ProcessDetail } from './api';
import { h } from './dom';
import { formatDate, formatInstant, formatNumber } from './i18n/format';
import { t } from './i18n/messages';
import { renderTimeline } from './timeline';

type Row = [label: string, value: string | number | null | undefined];

/** Numbers (weights, volumes, counts) as the language writes them; texts as the API sent them. */
function shown(value: string | number): string {
  return typeof value === 'number' ? formatNumber(value) : value;
}

function facts(rows: Row[]): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    ...rows.flatMap(([label, value]) => [
      h('dt', {}, label),
      h('dd', {}, value === null || value === undefined || value === '' ? '—' : shown(value)),
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
          h('tr', {}, ...cells.map((cell) => h('td', {}, cell === null ? '—' : shown(cell)))),
        ),
      ),
    ),
  );
  const frame = h(
    'div',
    { class: 'table-frame' },
    box,
    h('p', { class: 'scroll-cue', 'aria-hidden': 'true' }, t().scrollSideways),
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
      h('button', { type: 'button', class: 'secondary', onclick: close }, t().close),
    ),
    h(
      'p',
      { class: 'meta' },
      `${t().processStatuses[detail.status]} · ` +
        t().enrichment(
          t().enrichmentStates[detail.enrichment.status],
          formatInstant(detail.enrichment.fetchedAt),
        ),
    ),
    h('h3', {}, t().shipment),
    facts([
      [t().type, `${t().processTypes[shipment.type]} · ${t().modes[shipment.mode]}`],
      [
        t().route,
        `${shipment.origin.name} (${shipment.origin.code}) → ${shipment.destination.name} (${shipment.destination.code})`,
      ],
      [t().incoterm, shipment.incoterm],
      [t().shipped, formatDate(shipment.shipmentDate)],
      [t().eta, formatDate(shipment.eta)],
      [t().firstEta, formatDate(detail.summary.originalEta)],
      [t().arrived, formatDate(shipment.arrivalDate)],
      [t().booking, shipment.bookingNumber],
      [t().masterBill, shipment.masterBill],
      [t().houseBill, shipment.houseBill],
      [t().cargo, shipment.cargoDescription],
      [t().packages, shipment.packages],
      [t().grossWeightKg, shipment.grossWeightKg],
      [t().volumeM3, shipment.volumeM3],
    ]),
    table(
      t().parties,
      [t().role, t().name, t().taxId, t().country],
      detail.parties.map((party) => [t().partyRoles[party.role], party.name, party.taxId, party.country]),
    ),
  ];
  if (detail.containers !== undefined) {
    sections.push(
      table(
        t().containers,
        [t().number, t().type, t().seal, t().grossWeightKg],
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
        t().voyages,
        // ETD, ATD, ETA and ATA are what the trade says in every language.
        ['#', t().vessel, t().voyage, t().carrier, t().from, t().to, 'ETD', 'ATD', 'ETA', 'ATA'],
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
        t().etaHistory,
        ['ETA', t().recorded],
        detail.etaHistory.map((record) => [formatDate(record.eta), formatInstant(record.recordedAt)]),
      ),
    );
  }
  if (detail.customs !== undefined) {
    const { customs } = detail;
    sections.push(
      h('h3', {}, t().customs),
      facts([
        [t().declaration, `${customs.declarationType} ${customs.declarationNumber}`],
        [t().registered, formatInstant(customs.registeredAt)],
        [t().channel, t().channels[customs.channel ?? 'NONE']],
        [t().channelAssigned, formatInstant(customs.channelAssignedAt)],
        [t().cleared, formatInstant(customs.clearedAt)],
        [
          // The Brazilian system's own name.
          'CE-Mercante',
          customs.ceMercante === null
            ? null
            : t().ceMercante(customs.ceMercante.master, customs.ceMercante.house ?? '—'),
        ],
      ]),
    );
  }
  sections.push(h('h3', {}, t().followUp), renderTimeline(detail));
  return sections;
}
