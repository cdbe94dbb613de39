import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../src/operations/operations.types.js';
import {
  anEvent,
  anOperationsDetail,
  anOperationsProcess,
} from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { seriousAccessibilityViolations } from './support/accessibility.js';
import { launchChromium } from './support/chromium.js';
import { PORTAL_SCREENSHOTS, preparePortalSuite } from './support/portal-suite.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { waitUntil } from './support/wait-until.js';

const STATUSES = ['OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'CUSTOMS_CLEARANCE', 'DELIVERED'] as const;
/** The importer's today: the Arrivals questions are about the days from it. */
const TODAY = new Date('2026-03-24T09:00:00');

/**
 * 25 processes of acme (two pages of 20): modes, channels and free time vary; the newest has two events
 * too close to draw apart.
 */
function processes(): OperationsProcess[] {
  return Array.from({ length: 25 }, (_, index) => {
    const numero = `IMP-2026-${String(index + 1).padStart(6, '0')}`;
    const eta = `2026-03-${String(20 + (index % 8)).padStart(2, '0')}`;
    return anOperationsProcess({
      numero,
      status: STATUSES[index % STATUSES.length],
      updatedAt: `2026-03-${String((index % 23) + 1).padStart(2, '0')}T12:00:00Z`,
      mode: index % 5 === 1 ? 'AIR' : index % 5 === 2 ? 'ROAD' : 'SEA',
      customsChannel: index % 3 === 0 ? 'RED' : 'YELLOW',
      eta,
      freeTimeEndsAt: index % 2 === 0 ? '2026-03-26' : '2026-03-30',
      events: [
        anEvent({ id: `${numero}-1`, code: 'PROCESS_OPENED', occurredAt: '2026-02-01T10:00:00Z' }),
        anEvent({ id: `${numero}-2`, code: 'BOOKING_CONFIRMED', occurredAt: '2026-02-10T10:00:00Z' }),
        anEvent({ id: `${numero}-3`, code: 'DEPARTED', occurredAt: '2026-02-21T03:00:00Z' }),
        ...(index === 22
          ? [anEvent({ id: `${numero}-4`, code: 'NOTE', occurredAt: '2026-02-21T05:00:00Z' })]
          : []),
      ],
    });
  });
}

/** What each language's page must say (a handful of known strings), and how it writes a date. */
const LANGUAGES = {
  en: {
    browser: 'en-US',
    userName: 'User name',
    password: 'Password',
    signIn: 'Sign in',
    firstPage: '25 processes · page 1 of 2',
    views: { arrivals: 'Arrivals', webhooks: 'Webhooks', systems: 'Systems' },
    arrivingWeek: 'Arriving in the next 7 days',
    details: 'Details',
    close: 'Close',
    filters: 'Filters',
    captions: ['Parties', 'Containers', 'Voyages', 'ETA history'],
    shipped: /^Shipped \d{2} [A-Z][a-z]{2} 2026 · ETA \d{2} [A-Z][a-z]{2} 2026/,
    late: ' +2 days late',
    sendTest: 'Send test',
    deliveries: 'Deliveries',
    webhookKinds: 'Kinds: status changed · created ',
    systemScopes: 'Scopes: processes:read',
  },
  'pt-BR': {
    browser: 'pt-BR',
    userName: 'Usuário',
    password: 'Senha',
    signIn: 'Entrar',
    firstPage: '25 processos · página 1 de 2',
    views: { arrivals: 'Chegadas', webhooks: 'Webhooks', systems: 'Sistemas' },
    arrivingWeek: 'Chegando nos próximos 7 dias',
    details: 'Detalhes',
    close: 'Fechar',
    filters: 'Filtros',
    captions: ['Envolvidos', 'Contêineres', 'Viagens', 'Histórico da ETA'],
    shipped: /^Embarque \d{2} de [a-zç]{3}\. de 2026 · ETA \d{2} de [a-zç]{3}\. de 2026/,
    late: ' 2 dias de atraso',
    sendTest: 'Enviar teste',
    deliveries: 'Entregas',
    webhookKinds: 'Tipos: status alterado · criado em ',
    systemScopes: 'Escopos: processes:read',
  },
} as const;
type Language = keyof typeof LANGUAGES;

/** English words and phrases of the page's own, each of which would be a leak on the Portuguese page. */
const ENGLISH = [
  'Sign out',
  'Processes',
  'Arrivals',
  'Systems',
  'Filters',
  'Customs channel',
  'Details',
  'Shipped',
  'Updated',
  'Free time until',
  'Channel',
  'late',
  'Next ›',
  'Previous',
  'Parties',
  'Follow-up',
  'Shipment',
  'Scroll sideways',
  'New webhook',
  'Your webhooks',
  'Deliveries',
  'Attempts',
  'Register system',
  'Your systems',
  'last used',
  'delivered',
  'in transit',
  'Import',
];

/** Every word a person or a screen reader meets on the page: text, and the words of attributes. */
function wordsOnPage(page: Page): Promise<string> {
  return page.evaluate<string>(`[
    document.title,
    document.body.innerText,
    ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((element) =>
      ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? '')),
  ].join('\\n')`);
}

/**
 * The layout rules the portal keeps in every language (longer Portuguese words included): nothing
 * wider than the screen; timeline markers apart, and inside their box unless it scrolls (on a
 * phone), which it may not on a wide screen; the pager in one row; no button label cut; filter
 * controls of one height; the detail's cut tables cued, and the others whole on a wide screen.
 */
async function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`((wide) => {
    const faults = [];
    if (document.documentElement.scrollWidth > window.innerWidth) {
      // Named by the outermost elements that reach past the screen's edge.
      const past = (element) => element.getBoundingClientRect().right > window.innerWidth + 1;
      const outermost = [...document.body.querySelectorAll('*')].filter((element) => past(element) && !past(element.parentElement));
      faults.push('the page scrolls sideways: ' + outermost.slice(0, 3).map((element) => element.tagName + '#' + element.id + '.' + element.className).join(', '));
    }
    for (const track of document.querySelectorAll('#results .timeline-track')) {
      const numero = track.closest('li').dataset.numero;
      const shown = [...track.querySelectorAll('.timeline-event')]
        .filter((marker) => marker.getClientRects().length > 0)
        .map((marker) => marker.getBoundingClientRect());
      if (shown.some((a, i) => shown.some((b, j) => i !== j && a.left < b.right - 1 && b.left < a.right - 1)))
        faults.push(numero + ': markers overlap');
      const scroller = track.closest('.timeline-scroll');
      const scrolls = scroller.scrollWidth > scroller.clientWidth;
      if (scrolls && wide) faults.push(numero + ': the timeline scrolls on a wide screen');
      const box = scroller.getBoundingClientRect();
      for (const mark of scrolls ? [] : track.querySelectorAll('.timeline-event, .event-label, .timeline-marker')) {
        if (mark.getClientRects().length === 0) continue;
        const inner = mark.getBoundingClientRect();
        if (inner.left < box.left || inner.right > box.right) faults.push(numero + ': ' + mark.className + ' cut');
      }
    }
    const pager = [...document.querySelectorAll('#pager button')];
    if (new Set(pager.map((button) => Math.round(button.getBoundingClientRect().top))).size > 1)
      faults.push('the pager wraps');
    // A timeline marker's label stands beside its symbol, outside the button on purpose.
    for (const button of document.querySelectorAll('button:not(.timeline-event)')) {
      if (button.getClientRects().length > 0 && button.scrollWidth > button.clientWidth)
        faults.push('cut label: ' + button.textContent);
    }
    const heights = new Set([...document.querySelectorAll('#filters input:not([type=checkbox]), #filters select, #filters button')]
      .filter((control) => control.getClientRects().length > 0)
      .map((control) => Math.round(control.getBoundingClientRect().height)));
    if (heights.size > 1) faults.push('filter controls of ' + heights.size + ' heights');
    // On a wide screen, every table fits but those that say they scroll.
    for (const box of wide ? document.querySelectorAll('.table-scroll') : []) {
      if (box.getClientRects().length > 0 && !box.closest('.table-frame') && box.scrollWidth > box.clientWidth)
        faults.push(box.querySelector('caption').textContent + ': cut on a wide screen');
    }
    for (const frame of document.querySelectorAll('#detail .table-frame')) {
      const box = frame.querySelector('.table-scroll');
      const cued = frame.querySelector('.scroll-cue').getBoundingClientRect().height > 0 && frame.dataset.overflow !== 'none';
      if (box.scrollWidth > box.clientWidth && !cued) faults.push(frame.querySelector('caption').textContent + ': cut, with no cue');
    }
    return faults;
  })(window.innerWidth > 1000)`);
}

describe('the reference portal in English and Brazilian Portuguese, in Chromium', () => {
  const gateway = new FakeOperationsGateway();
  let browser: Browser | null;
  let testApp: TestApp;
  let apiOrigin: string;

  beforeAll(async () => {
    browser = await launchChromium('portal languages browser suite');
    if (browser === null) return;
    preparePortalSuite();
    for (const process of processes()) gateway.put(process, anOperationsDetail(process));
    testApp = await TestApp.start({
      // A receiver that is not there: the test message's attempt fails, and the log shows why.
      env: { PORTAL_ENABLED: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    // Every fourth vessel slips two days after the first ETA was announced.
    for (const slipping of gateway.all().filter((_, index) => index % 4 === 0)) {
      const eta = new Date(Date.parse(`${slipping.eta!}T00:00:00Z`) + 2 * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const slipped = { ...slipping, eta, updatedAt: slipping.updatedAt.replace('2026-03', '2026-04') };
      gateway.put(slipped, anOperationsDetail(slipped));
    }
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    const token = await testApp.login('acme', 'acme-pass-1');
    await testApp.http
      .post('/api/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: 'http://127.0.0.1:9/hooks/processes', kinds: ['STATUS_CHANGED'] })
      .expect(201);
    await testApp.http
      .post('/api/clients')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'SAP', scopes: ['processes:read'] })
      .expect(201);
    await testApp.app.listen(0, '127.0.0.1');
    apiOrigin = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  /** A page of a browser that prefers `language`, signed in; the list shown. */
  async function signedIn(language: Language, width: number): Promise<{ page: Page; errors: string[] }> {
    const words = LANGUAGES[language];
    const page = await browser!.newPage({
      viewport: { width, height: width < 600 ? 844 : 900 },
      locale: words.browser,
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      // A refused stream (the suite's pages share a user's streams) is logged, and revalidation takes over.
      if (message.type() === 'error' && !message.location().url.endsWith('/api/changes/stream'))
        errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.clock.setFixedTime(TODAY);
    await page.goto(`${apiOrigin}/portal/`);
    await page.getByLabel(words.userName).fill('acme');
    await page.getByLabel(words.password, { exact: true }).fill('acme-pass-1');
    await page.getByRole('button', { name: words.signIn }).click();
    await page.getByText(words.firstPage).waitFor();
    return { page, errors };
  }

  const results = (page: Page) => page.locator('#results > li.process');

  describe.each(Object.keys(LANGUAGES) as Language[])('in %s', (language) => {
    const words = LANGUAGES[language];

    it.each([390, 1280])(
      'renders every view in it at %i px, laid out and accessible',
      async (width) => {
        if (browser === null) return;
        const { page, errors } = await signedIn(language, width);
        // The lists, the filters and the detail panel as a person sees them on the first screen; the other views whole.
        const shot = (view: string) =>
          page.screenshot({
            path: `${PORTAL_SCREENSHOTS}/${view}-${width}-${language}.png`,
            fullPage: !['list', 'filters', 'arrivals', 'detail'].includes(view),
          });
        /** What every view must hold to: its language, no English leak, its layout, axe. */
        const check = async (view: string) => {
          await expect(page.evaluate<string>('document.documentElement.lang')).resolves.toBe(language);
          if (language !== 'en') {
            const shown = await wordsOnPage(page);
            expect({
              view,
              leaks: ENGLISH.filter((english) => new RegExp(`\\b${english}\\b`).test(shown)),
            }).toEqual({
              view,
              leaks: [],
            });
          }
          expect({ view, faults: await layoutFaults(page) }).toEqual({ view, faults: [] });
          // axe costs the browser about a second a run: every view is checked at the desktop width,
          // and at the phone's only the view it alone has (the filters, unfolded).
          if (width < 600 && view !== 'filters') return;
          expect({ view, violations: await seriousAccessibilityViolations(page) }).toEqual({
            view,
            violations: [],
          });
        };

        // The list: dates in the language's own way, and a delay in its words.
        await waitUntil(async () => (await page.locator('#results .timeline-group').count()) > 0, 10_000);
        const dates = await results(page).locator('.process-dates').allTextContents();
        for (const line of dates) expect(line).toMatch(words.shipped);
        expect(await results(page).locator('.delay').allTextContents()).toContain(words.late);
        await expect(page.locator('#filters').isVisible()).resolves.toBe(width > 600);
        await shot('list');
        await check('list');
        if (width < 600) {
          await page.getByRole('button', { name: words.filters }).click();
          await shot('filters');
          await check('filters');
        }

        await results(page).first().getByRole('button', { name: words.details }).click();
        await page
          .locator('#detail')
          .getByRole('heading', { name: /^IMP-2026-/ })
          .waitFor();
        await expect(page.locator('#detail caption').allTextContents()).resolves.toEqual(words.captions);
        await shot('detail');
        await check('detail');
        await page.locator('#detail').getByRole('button', { name: words.close }).click();

        await page.getByRole('button', { name: words.views.arrivals }).click();
        await page.getByRole('button', { name: words.arrivingWeek }).click();
        await page.locator('#results-meta', { hasText: /\d/ }).waitFor();
        await waitUntil(
          async () =>
            (await page.getByRole('button', { name: words.arrivingWeek }).getAttribute('aria-pressed')) ===
            'true',
        );
        await shot('arrivals');
        await check('arrivals');

        await page.getByRole('button', { name: words.views.webhooks }).click();
        const webhook = page.locator('#webhook-list > li');
        await expect(webhook.locator('.meta').first().textContent()).resolves.toContain(words.webhookKinds);
        await webhook.getByRole('button', { name: words.sendTest }).click();
        await webhook.getByRole('button', { name: words.deliveries }).click();
        await page.locator('#deliveries-rows > tr').first().waitFor();
        await shot('webhooks');
        await check('webhooks');

        await page.getByRole('button', { name: words.views.systems }).click();
        await expect(page.locator('#system-list > li').textContent()).resolves.toContain(words.systemScopes);
        await shot('systems');
        await check('systems');
        expect(errors).toEqual([]);
        await page.close();
      },
      90_000,
    );
  });

  it('switches language in the page, redrawing the view with its filters and page kept, and remembers it', async () => {
    if (browser === null) return;
    const { page, errors } = await signedIn('en', 1280);
    await page.getByLabel('sea', { exact: true }).check();
    await page.getByLabel('Per page').selectOption('10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('15 processes · page 1 of 2').waitFor();
    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.getByText('15 processes · page 2 of 2').waitFor();
    const numeros = await results(page).getByRole('heading').allTextContents();
    await results(page).first().getByRole('button', { name: 'Details' }).click();
    await page.locator('#detail caption', { hasText: 'Parties' }).waitFor();
    // Set on this document: a reload would lose it.
    await page.evaluate('window.sameDocument = true');

    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByText('15 processos · página 2 de 2').waitFor();
    await expect(page.evaluate<boolean>('window.sameDocument')).resolves.toBe(true);
    await expect(page.evaluate<string>('document.documentElement.lang')).resolves.toBe('pt-BR');
    await expect(results(page).getByRole('heading').allTextContents()).resolves.toEqual(numeros);
    await expect(page.getByLabel('marítimo', { exact: true }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Por página').inputValue()).resolves.toBe('10');
    await expect(page.locator('#detail caption').first().textContent()).resolves.toBe('Envolvidos');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Processos');

    // Remembered for this browser, which prefers English.
    await page.reload();
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    await expect(page.evaluate<string>('document.documentElement.lang')).resolves.toBe('pt-BR');
    await expect(page.getByLabel('Idioma').inputValue()).resolves.toBe('pt-BR');
    expect(errors).toEqual([]);
    await page.close();
  });
});
