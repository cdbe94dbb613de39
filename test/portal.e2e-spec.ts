import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwtService } from '@nestjs/jwt';
import type { Browser, Page } from 'playwright-core';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../src/operations/operations.types.js';
import { PORTAL_BUILD_DIRECTORY } from '../src/portal/portal.static.js';
import {
  anEvent,
  anOperationsDetail,
  anOperationsProcess,
} from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { seriousAccessibilityViolations } from './support/accessibility.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from './support/chromium.js';
import { PORTAL_SCREENSHOTS, preparePortalSuite } from './support/portal-suite.js';
import { serveStaticFiles } from './support/static-files-server.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { waitUntil } from './support/wait-until.js';

const STATUSES = ['OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'CUSTOMS_CLEARANCE', 'DELIVERED'] as const;
/** The newest process: its ETA before every event, its last event at the very end of its track. */
const LATE = 'IMP-2026-000025';

/**
 * 25 processes of acme (two pages of 20) and one of globex, each with a few events. Every fifth
 * goes by air and every fifth by road (the rest by sea), every fourth is an export, every third's
 * customs channel is red (the others' yellow).
 */
function processes(): OperationsProcess[] {
  const acme = Array.from({ length: 25 }, (_, index) => {
    const numero = `IMP-2026-${String(index + 1).padStart(6, '0')}`;
    const day = String((index % 27) + 1).padStart(2, '0');
    const channel = index % 3 === 0 ? 'RED' : 'YELLOW';
    return anOperationsProcess({
      numero,
      status: STATUSES[index % STATUSES.length],
      updatedAt: `2026-03-${day}T12:00:00Z`,
      mode: index % 5 === 1 ? 'AIR' : index % 5 === 2 ? 'ROAD' : 'SEA',
      type: index % 4 === 3 ? 'EXPORT' : 'IMPORT',
      customsChannel: channel,
      ...(numero === LATE
        ? { eta: '2026-01-20', freeTimeEndsAt: null }
        : {
            eta: `2026-03-${String(20 + (index % 8)).padStart(2, '0')}`,
            freeTimeEndsAt: index % 2 === 0 ? '2026-03-26' : '2026-03-30',
          }),
      customs: {
        declarationType: 'DUIMP',
        declarationNumber: `26BR00001234${String(index).padStart(2, '0')}-0`,
        registeredAt: '2026-02-25T14:05:00Z',
        channel,
        channelAssignedAt: '2026-02-25T18:40:00Z',
        clearedAt: null,
        ceMercante: { master: '152605012345678', house: null },
      },
      events: [
        anEvent({
          id: `${numero}-1`,
          code: 'PROCESS_OPENED',
          description: 'Processo aberto',
          occurredAt: '2026-02-01T10:00:00Z',
        }),
        anEvent({
          id: `${numero}-2`,
          code: 'BOOKING_CONFIRMED',
          description: 'Reserva confirmada',
          occurredAt: '2026-02-10T10:00:00Z',
        }),
        anEvent({
          id: `${numero}-3`,
          code: 'DEPARTED',
          description: 'Navio partiu de Shanghai',
          occurredAt: '2026-02-21T03:00:00Z',
        }),
        // Two hours after the departure: too close to draw apart, so drawn as a group of two.
        ...(index === 20
          ? [
              anEvent({
                id: `${numero}-5`,
                code: 'NOTE',
                description: 'Previsão de chegada confirmada',
                occurredAt: '2026-02-21T05:00:00Z',
              }),
            ]
          : []),
        ...(numero === LATE
          ? [
              anEvent({
                id: `${numero}-4`,
                code: 'CUSTOMS_DECLARATION_REGISTERED',
                description: 'Declaração registrada',
                occurredAt: '2026-02-25T14:05:00Z',
              }),
            ]
          : []),
      ],
    });
  });
  const globex = anOperationsProcess({
    numero: 'IMP-2026-009999',
    customer: { id: 'globex', name: 'Globex Comércio S.A.' },
  });
  return [...acme, globex];
}

/** Builds the portal as `npm run build:portal` does, into `outDir` under `base`. */
function buildPortal(options: { outDir: string; base: string }): void {
  execFileSync(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'build',
      '--config',
      'portal/vite.config.ts',
      '--logLevel',
      'error',
      '--outDir',
      options.outDir,
      '--emptyOutDir',
    ],
    { env: { ...process.env, PORTAL_BASE: options.base } },
  );
}

/** A host name that is not loopback, so that Chromium treats plain HTTP to it as untrustworthy. */
const PLAIN_HOST = 'portal.test';
/** The path a copy of the portal built with PORTAL_BASE is served under. */
const OTHER_BASE = '/tools/processes';

/**
 * The detail's tables that are cut at an edge, by caption: those with no cue that they scroll
 * (none may be), and those showing one.
 */
async function cutTables(page: Page): Promise<{ uncued: string[]; cued: string[] }> {
  return page.evaluate<{ uncued: string[]; cued: string[] }>(`(() => {
    const cut = [...document.querySelectorAll('#detail .table-frame')].filter((frame) => {
      const box = frame.querySelector('.table-scroll');
      return box.scrollWidth > box.clientWidth;
    });
    const cued = (frame) =>
      frame.querySelector('.scroll-cue').getBoundingClientRect().height > 0 && frame.dataset.overflow !== 'none';
    const caption = (frame) => frame.querySelector('caption').textContent;
    return { uncued: cut.filter((frame) => !cued(frame)).map(caption), cued: cut.filter(cued).map(caption) };
  })()`);
}

/**
 * Per timeline, the follow-up markers shown (single events and groups) that overlap another one,
 * and how many groups there are: markers too close to tell apart must be grouped instead.
 */
async function markerOverlaps(page: Page): Promise<{ overlapping: string[]; groups: number }> {
  return page.evaluate<{ overlapping: string[]; groups: number }>(`(() => {
    const overlapping = [...document.querySelectorAll('#results .timeline-track')].flatMap((track) => {
      const shown = [...track.querySelectorAll('.timeline-event')]
        .filter((marker) => marker.getClientRects().length > 0)
        .map((marker) => marker.getBoundingClientRect());
      const overlaps = shown.filter((a, i) =>
        shown.some((b, j) => i !== j && a.left < b.right - 1 && b.left < a.right - 1));
      return overlaps.length > 0 ? [track.closest('li').dataset.numero + ': ' + overlaps.length] : [];
    });
    return { overlapping, groups: document.querySelectorAll('#results .timeline-group').length };
  })()`);
}

jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

describe('the reference portal in Chromium', () => {
  const gateway = new FakeOperationsGateway();
  let browser: Browser | null;
  let testApp: TestApp;
  let apiOrigin: string;
  let listedOrigin: Awaited<ReturnType<typeof serveStaticFiles>>;
  let unlistedOrigin: Awaited<ReturnType<typeof serveStaticFiles>>;
  let otherBaseOrigin: Awaited<ReturnType<typeof serveStaticFiles>>;
  let otherBaseBuild: string;
  let consoleErrors: string[];

  beforeAll(async () => {
    browser = await launchChromium('portal browser suite', [
      `--host-resolver-rules=MAP ${PLAIN_HOST} 127.0.0.1`,
    ]);
    if (browser === null) return;
    preparePortalSuite();
    otherBaseBuild = mkdtempSync(join(tmpdir(), 'portal-other-base-'));
    buildPortal({ outDir: otherBaseBuild, base: `${OTHER_BASE}/` });
    listedOrigin = await serveStaticFiles(PORTAL_BUILD_DIRECTORY, '/portal');
    unlistedOrigin = await serveStaticFiles(PORTAL_BUILD_DIRECTORY, '/portal');
    otherBaseOrigin = await serveStaticFiles(otherBaseBuild, OTHER_BASE);
    for (const process of processes()) gateway.put(process, anOperationsDetail(process));
    testApp = await TestApp.start({
      env: { PORTAL_ENABLED: 'true', CORS_ORIGINS: `${listedOrigin.origin},${otherBaseOrigin.origin}` },
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.app.listen(0, '127.0.0.1');
    apiOrigin = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await listedOrigin?.close();
    await unlistedOrigin?.close();
    await otherBaseOrigin?.close();
    if (otherBaseBuild !== undefined) rmSync(otherBaseBuild, { recursive: true, force: true });
    await testApp?.close();
  });

  async function openPortal(
    url = `${apiOrigin}/portal/`,
    viewport = { width: 1280, height: 900 },
  ): Promise<Page> {
    const page = await browser!.newPage({ viewport });
    consoleErrors = [];
    page.on('console', (message) => {
      // Chromium logs a refused stream (the tests' pages together pass the per-user stream limit)
      // as an error; the page then revalidates instead, which the tests see working.
      if (message.type() === 'error' && !message.location().url.endsWith('/api/changes/stream')) {
        consoleErrors.push(message.text());
      }
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(url);
    return page;
  }

  async function signIn(page: Page, password = 'acme-pass-1'): Promise<void> {
    await page.getByLabel('User name').fill('acme');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const results = (page: Page) => page.locator('#results > li.process');

  it('signs in, lists with pages from Link, filters and opens a detail', async () => {
    if (browser === null) return;
    const page = await openPortal();
    await signIn(page, 'wrong-password');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Invalid credentials');
    // Chromium reports the refused sign-in's 401 on the console; what follows must be clean.
    consoleErrors = [];

    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();
    expect(await results(page).count()).toBe(20);
    // The newest update first, its follow-up drawn with the last event highlighted.
    await expect(results(page).first().getByRole('heading').textContent()).resolves.toBe('IMP-2026-000025');
    expect(await results(page).first().locator('.timeline-event.last[aria-current="step"]').count()).toBe(1);
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/list-desktop.png`, fullPage: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.getByText('25 processes · page 2 of 2').waitFor();
    expect(await results(page).count()).toBe(5);

    await page.getByLabel('delivered').check();
    await page.getByRole('button', { name: 'Apply' }).click();
    const delivered = processes().filter(
      (process) => process.customer.id === 'acme' && process.status === 'DELIVERED',
    );
    await page.getByText(`${delivered.length} processes · page 1 of 1`).waitFor();
    expect(await results(page).locator('.status').allTextContents()).toEqual(
      delivered.map(() => 'delivered'),
    );

    await results(page).first().getByRole('button', { name: 'Details' }).click();
    const detail = page.locator('#detail');
    await detail.getByRole('heading', { name: /^IMP-2026-/ }).waitFor();
    await expect(detail.locator('caption').allTextContents()).resolves.toEqual([
      'Parties',
      'Containers',
      'Voyages',
      'ETA history',
    ]);
    await expect(detail.textContent()).resolves.toContain('MSC AURORA');
    expect((await cutTables(page)).uncued).toEqual([]);
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/detail-desktop.png`, fullPage: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('filters by type, mode and customs channel, and pages with every filter kept', async () => {
    if (browser === null) return;
    const page = await openPortal();
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();

    await page.getByLabel('Type', { exact: true }).selectOption('EXPORT');
    await page.getByLabel('red', { exact: true }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('2 processes · page 1 of 1').waitFor();
    expect(await results(page).getByRole('heading').allTextContents()).toEqual([
      'IMP-2026-000016',
      'IMP-2026-000004',
    ]);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('25 processes · page 1 of 2').waitFor();
    await page.getByLabel('sea', { exact: true }).check();
    await page.getByLabel('air', { exact: true }).check();
    await page.getByLabel('Per page').selectOption('10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('20 processes · page 1 of 2').waitFor();
    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.getByText('20 processes · page 2 of 2').waitFor();
    const summaries = await results(page).locator('.process-summary').allTextContents();
    expect(summaries).toHaveLength(10);
    for (const summary of summaries) expect(summary).toMatch(/ · (sea|air) · /);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('draws every timeline marker and label inside its box, at the ends of the track too', async () => {
    if (browser === null) return;
    const page = await openPortal();
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();
    // The first process's ETA is before its events, its last event at the end of its track.
    await expect(results(page).first().getByRole('heading').textContent()).resolves.toBe(LATE);

    const clipped = await page.evaluate<
      string[]
    >(`[...document.querySelectorAll('.timeline-scroll')].flatMap((box) => {
      const outer = box.getBoundingClientRect();
      const cut = [...box.querySelectorAll('.timeline-event, .event-label, .timeline-marker')].filter((mark) => mark.getClientRects().length > 0).filter((mark) => {
        const inner = mark.getBoundingClientRect();
        return inner.left < outer.left || inner.right > outer.right || inner.top < outer.top || inner.bottom > outer.bottom;
      });
      const scrolls = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
      const numero = box.closest('li').dataset.numero;
      return [...(scrolls ? [numero + ': overflows its box'] : []), ...cut.map((mark) => numero + ': ' + mark.className)];
    })`);

    expect(clipped).toEqual([]);
    // No marker overlaps another: close events are one marker with their count.
    await waitUntil(async () => (await markerOverlaps(page)).groups > 0, 10_000);
    expect((await markerOverlaps(page)).overlapping).toEqual([]);
    await page.close();
  });

  it('works over plain HTTP on an address that is not loopback, with no console error', async () => {
    if (browser === null) return;
    const { port } = new URL(apiOrigin);
    const page = await openPortal(`http://${PLAIN_HOST}:${port}/portal/`);
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();
    await page.goto(`http://${PLAIN_HOST}:${port}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();

    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('runs under another base path when built with PORTAL_BASE', async () => {
    if (browser === null) return;
    const page = await openPortal(`${otherBaseOrigin.origin}${OTHER_BASE}/?api=${apiOrigin}`);
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();

    expect(readFileSync(join(otherBaseBuild, 'index.html'), 'utf8')).toContain(`src="${OTHER_BASE}/assets/`);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('shows a change of a process as the change stream pushes it, without a reload', async () => {
    if (browser === null) return;
    // Revalidation every 60 s: within the 15 s below, only the stream can bring the change.
    const page = await openPortal(`${apiOrigin}/portal/?refresh=60`);
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();
    await expect(page.locator('#live').textContent()).resolves.toBe('● Live');
    const changed = gateway.all().find((process) => process.numero === 'IMP-2026-000003')!;
    gateway.put({
      ...changed,
      status: 'ARRIVED',
      updatedAt: '2026-04-01T09:00:00Z',
      events: [
        ...changed.events,
        anEvent({
          id: 'IMP-2026-000003-4',
          code: 'ARRIVED',
          description: 'Navio chegou a Santos',
          occurredAt: '2026-04-01T08:00:00Z',
        }),
      ],
    });
    await syncNow(testApp);

    // The page announces each change the stream pushes (to screen readers).
    await waitUntil(
      async () => (await page.locator('#notice').textContent())?.startsWith('IMP-2026-000003: ') === true,
      15_000,
    );
    const first = results(page).first();
    await first.getByRole('heading', { name: 'IMP-2026-000003' }).waitFor({ timeout: 15_000 });
    await expect(first.locator('.status').textContent()).resolves.toBe('arrived');
    await expect(first.locator('.timeline-event.last').getAttribute('aria-label')).resolves.toContain(
      'Navio chegou a Santos',
    );
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('gets a 304 from the page’s own fetch in every cache mode that asks the server', async () => {
    if (browser === null) return;
    const page = await openPortal();
    const token = await testApp.login('acme', 'acme-pass-1');
    // Run in the page (the browser's fetch, not Node's): what a portal's own code would send.
    const statuses = await page.evaluate<Record<string, number>>(`(async () => {
      const headers = { Authorization: 'Bearer ${token}' };
      const first = await fetch('/api/processes', { headers, cache: 'no-store' });
      const etag = first.headers.get('ETag');
      const answers = {};
      for (const cache of ['default', 'no-store', 'reload', 'no-cache']) {
        const answer = await fetch('/api/processes', { headers: { ...headers, 'If-None-Match': etag }, cache });
        answers[cache] = answer.status;
      }
      return answers;
    })()`);
    expect(statuses).toEqual({ default: 304, 'no-store': 304, reload: 304, 'no-cache': 304 });
    await page.close();
  });

  /** Hands the page, at sign-in, an access token of the same user that expired an hour ago. */
  async function signInWithAnExpiredToken(page: Page): Promise<void> {
    await page.route('**/api/auth/login', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { accessToken: string };
      const { sub, sid } = testApp.app.get(JwtService).decode<{ sub: string; sid: string }>(body.accessToken);
      const expired = await testApp.app
        .get(JwtService)
        .signAsync(
          { sub, sid, iat: Math.floor(Date.now() / 1000) - 7200 },
          { jwtid: 'expired', header: { alg: 'HS256', typ: 'at+jwt' } },
        );
      await route.fulfill({ response, json: { ...body, accessToken: expired } });
    });
    await signIn(page);
  }

  it('renews an expired token once, however many requests meet it, and stays signed in', async () => {
    if (browser === null) return;
    const page = await openPortal();
    let refreshes = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/refresh') refreshes += 1;
    });
    await signInWithAnExpiredToken(page);

    await page.getByText('25 processes · page 1 of 2').waitFor();
    expect(refreshes).toBe(1);
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(false);
    // Chromium reports the expired token's 401s on the console; nothing else may be there.
    expect(consoleErrors.filter((error) => !error.includes('401'))).toEqual([]);
    await page.close();
  });

  it('returns to the sign-in form with the API’s words when an expired token cannot be renewed', async () => {
    if (browser === null) return;
    const page = await openPortal();
    await page.route('**/api/auth/refresh', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/problem+json',
        json: { type: '/problems/invalid-credentials', title: 'Invalid credentials', status: 401 },
      }),
    );
    await signInWithAnExpiredToken(page);

    await expect(page.getByRole('alert').textContent()).resolves.toContain('The access token expired');
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('works from another origin listed in CORS_ORIGINS and fails cleanly from one that is not', async () => {
    if (browser === null) return;
    const listed = await openPortal(`${listedOrigin.origin}/portal/?api=${apiOrigin}`);
    await signIn(listed);
    await listed.getByText('25 processes · page 1 of 2').waitFor();
    await listed.close();

    const unlisted = await openPortal(`${unlistedOrigin.origin}/portal/?api=${apiOrigin}`);
    await signIn(unlisted);
    await expect(unlisted.getByRole('alert').textContent()).resolves.toContain(
      'could not be reached from this page',
    );
    await expect(unlisted.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await unlisted.close();
  });

  it('answers the Arrivals questions with one click each, sorted by their date, with each delay', async () => {
    if (browser === null) return;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The importer's today: the questions are about the days from it.
    await page.clock.setFixedTime(new Date('2026-03-24T09:00:00'));
    // Revalidating every second when the stream is refused (the suite's pages share a user's streams).
    await page.goto(`${apiOrigin}/portal/?refresh=1`);
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();
    const acme = processes().filter((process) => process.customer.id === 'acme');
    const expected = (within: (process: OperationsProcess) => string | null, from: string, to: string) =>
      acme
        .filter((process) => (within(process) ?? '') >= from && (within(process) ?? '9') <= to)
        .sort((a, b) => within(a)!.localeCompare(within(b)!) || a.numero.localeCompare(b.numero))
        .map((process) => process.numero);

    await page.getByRole('button', { name: 'Arrivals' }).click();
    expect(await page.locator('#filters').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Arriving in the next 7 days' }).click();
    const arriving = expected((process) => process.eta, '2026-03-24', '2026-03-30');
    await page.getByText(`${arriving.length} processes · page 1 of 1`).waitFor();
    await results(page).first().getByRole('heading', { name: arriving[0] }).waitFor();
    await expect(results(page).getByRole('heading').allTextContents()).resolves.toEqual(arriving);
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/arrivals-week-desktop.png`, fullPage: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Free time ending in the next 3 days' }).click();
    const freeTime = expected((process) => process.freeTimeEndsAt, '2026-03-24', '2026-03-26');
    await page.getByText(`${freeTime.length} processes · page 1 of 1`).waitFor();
    // Both questions find as many processes here: the first row tells the answers apart.
    await results(page).first().getByRole('heading', { name: freeTime[0] }).waitFor();
    await expect(results(page).getByRole('heading').allTextContents()).resolves.toEqual(freeTime);
    await expect(
      page.getByRole('button', { name: 'Free time ending in the next 3 days' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');

    // A vessel slips three days: the row says so once the change arrives.
    const slipping = acme.find((process) => process.numero === freeTime[0])!;
    gateway.put({ ...slipping, eta: '2026-03-27', updatedAt: '2026-04-10T00:00:00Z' });
    await syncNow(testApp);
    const row = results(page).filter({ hasText: slipping.numero });
    await waitUntil(async () => ((await row.locator('.delay').textContent()) ?? '').includes('late'), 15_000);
    const slipped = Math.round((Date.parse('2026-03-27') - Date.parse(slipping.eta!)) / 86_400_000);
    await expect(row.locator('.delay').textContent()).resolves.toBe(
      ` +${slipped} day${slipped === 1 ? '' : 's'} late`,
    );
    await page.close();
  }, 60_000);

  it('gives every filter control one height, and folds the filters away at phone width', async () => {
    if (browser === null) return;
    const page = await openPortal();
    await signIn(page);
    await page.getByText('25 processes · page 1 of 2').waitFor();
    const heights = await page.evaluate<number[]>(
      `[...new Set([...document.querySelectorAll('#filters input:not([type=checkbox]), #filters select, #filters button')]
        .map((control) => Math.round(control.getBoundingClientRect().height)))]`,
    );
    expect(heights).toHaveLength(1);
    await page.close();

    const phone = await openPortal(`${apiOrigin}/portal/`, { width: 390, height: 844 });
    await signIn(phone);
    await phone.getByText('25 processes · page 1 of 2').waitFor();
    expect(await phone.locator('#filters').isVisible()).toBe(false);
    // The first result starts on the first screen.
    const firstResultTop = await phone.evaluate<number>(
      `document.querySelector('#results > li.process').getBoundingClientRect().top`,
    );
    expect(firstResultTop).toBeLessThan(844);
    await phone.getByRole('button', { name: 'Filters' }).click();
    expect(await phone.locator('#filters').isVisible()).toBe(true);
    await expect(phone.getByRole('button', { name: 'Filters' }).getAttribute('aria-expanded')).resolves.toBe(
      'true',
    );
    expect(await seriousAccessibilityViolations(phone)).toEqual([]);
    await phone.close();
  });

  it('is usable with the keyboard alone on a phone-width screen', async () => {
    if (browser === null) return;
    const page = await openPortal(`${apiOrigin}/portal/`, { width: 390, height: 844 });
    await page.getByLabel('User name').focus();
    await page.keyboard.type('acme');
    await page.keyboard.press('Tab');
    await page.keyboard.type('acme-pass-1');
    await page.keyboard.press('Enter');
    await page.getByText('25 processes · page 1 of 2').waitFor();
    // Nothing wider than the screen: the timelines scroll inside their own box.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // The pager's four buttons in one row, inside the screen, none cutting its label.
    const pager = await page.evaluate<{ rows: number; right: number; cut: boolean }>(`(() => {
      const buttons = [...document.querySelectorAll('#pager button')];
      const boxes = buttons.map((button) => button.getBoundingClientRect());
      return {
        rows: new Set(boxes.map((box) => Math.round(box.top))).size,
        right: Math.max(...boxes.map((box) => box.right)),
        cut: buttons.some((button) => button.scrollWidth > button.clientWidth),
      };
    })()`);
    expect(pager).toEqual({ rows: 1, right: expect.any(Number), cut: false });
    expect(pager.right).toBeLessThanOrEqual(390);
    await waitUntil(async () => (await markerOverlaps(page)).groups > 0, 10_000);
    expect((await markerOverlaps(page)).overlapping).toEqual([]);
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/list-phone.png` });

    await results(page).first().getByRole('button', { name: 'Details' }).focus();
    await page.keyboard.press('Enter');
    await page
      .locator('#detail')
      .getByRole('heading', { name: /^IMP-2026-/ })
      .waitFor();
    await expect(page.evaluate<string | undefined>('document.activeElement?.id')).resolves.toBe('detail');
    // The tables wider than the screen say so: a shadow at the cut edge and a line of text.
    await waitUntil(async () => (await cutTables(page)).cued.includes('Parties'));
    expect((await cutTables(page)).uncued).toEqual([]);
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/detail-phone.png` });
    // The parties table is wider than the screen: its box takes focus, and the arrow keys scroll it.
    const focused = () =>
      page.evaluate<string>(
        `document.activeElement.getAttribute('role') + ' ' + document.activeElement.getAttribute('aria-label')`,
      );
    for (let presses = 0; presses < 5 && (await focused()) !== 'region Parties'; presses += 1) {
      await page.keyboard.press('Tab');
    }
    await expect(focused()).resolves.toBe('region Parties');
    await page.keyboard.press('ArrowRight');
    await waitUntil(async () => (await page.evaluate<number>('document.activeElement.scrollLeft')) > 0);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});

describe('GET /portal', () => {
  let enabled: TestApp;
  let disabled: TestApp;

  beforeAll(async () => {
    preparePortalSuite();
    enabled = await TestApp.start({ env: { PORTAL_ENABLED: 'true' } });
    disabled = await TestApp.start({ env: { PORTAL_ENABLED: 'false' } });
  }, 60_000);

  afterAll(async () => {
    await enabled.close();
    await disabled.close();
  });

  it('redirects to the page, which revalidates and allows only its own scripts', async () => {
    await enabled.http.get('/portal').expect(301).expect('Location', '/portal/');
    const page = await enabled.http
      .get('/portal/')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");

    const script = /src="(\/portal\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const asset = await enabled.http.get(script!).expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('is an ordinary 404 when disabled', async () => {
    const response = await disabled.http
      .get('/portal/')
      .expect(404)
      .expect('Content-Type', /application\/problem\+json/);
    expect(response.body).toMatchObject({ type: '/problems/not-found' });
  });
});
