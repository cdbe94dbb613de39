import {
  ApiProblem,
  ApiUnreachable,
  PortalApi,
  type ChangeKind,
  type ListPage,
  type ListQuery,
  type ProcessDetail,
  type ProcessSummary,
} from './api';
import { followChangeStream } from './change-stream';
import { renderDetail } from './detail-view';
import { byId, h } from './dom';
import { formatDate, formatInstant } from './i18n/format';
import { onLanguageChange } from './i18n/language';
import { followLanguage } from './i18n/language-switch';
import { t } from './i18n/messages';
import { renderTimeline } from './timeline';
import { SystemsView } from './systems-view';
import { WebhooksView } from './webhooks-view';

const SORT_ORDERS: Array<NonNullable<ListQuery['sort']>> = [
  '-updatedAt',
  'updatedAt',
  '-shipmentDate',
  'shipmentDate',
  'numero',
  '-numero',
  'eta',
  '-eta',
  'freeTimeEndsAt',
  '-freeTimeEndsAt',
];
const STATUSES = [
  'OPEN',
  'BOOKED',
  'IN_TRANSIT',
  'ARRIVED',
  'CUSTOMS_CLEARANCE',
  'CLEARED',
  'DELIVERED',
  'CANCELLED',
] as const satisfies NonNullable<ListQuery['status']>;
const MODES = ['SEA', 'AIR', 'ROAD'] as const satisfies NonNullable<ListQuery['mode']>;
const CUSTOMS_CHANNELS = ['GREEN', 'YELLOW', 'RED', 'GRAY', 'NONE'] as const satisfies NonNullable<
  ListQuery['customsChannel']
>;
const TYPES = ['IMPORT', 'EXPORT'] as const satisfies Array<NonNullable<ListQuery['type']>>;

// `?api=https://api.example.com` points the page at an API on another origin (one listed in the
// API's CORS_ORIGINS); `?refresh=N` sets how often the list is revalidated when no stream is available.
const pageParameters = new URLSearchParams(window.location.search);
const api = new PortalApi((pageParameters.get('api') ?? '').replace(/\/$/, ''));
const refreshSeconds = Math.max(1, Number(pageParameters.get('refresh') ?? 30) || 30);

let query: ListQuery = { pageSize: 20 };
let current: ListPage | null = null;
let following: AbortController | null = null;
let lastEventId: string | null = null;
/** The detail shown in the panel, drawn again when the language changes. */
let shownDetail: ProcessDetail | null = null;
/** Who is signed in, and what the live indicator says: both worded again when the language changes. */
let signedInUser: string | null = null;
let liveState: 'live' | 'revalidating' = 'live';

const signInForm = byId<HTMLFormElement>('sign-in');
const filtersForm = byId<HTMLFormElement>('filters');
const workspace = byId('workspace');
const detailPanel = byId('detail');

function showAlert(error: unknown): void {
  const alert = byId('alert');
  alert.replaceChildren();
  if (error instanceof ApiProblem) {
    alert.append(h('strong', {}, error.title), error.detail ? ` ${error.detail}` : '');
    if (error.fieldMessages.length > 0)
      alert.append(h('ul', {}, ...error.fieldMessages.map((m) => h('li', {}, m))));
  } else if (error instanceof ApiUnreachable) {
    alert.append(t().apiUnreachable(error.origin));
  } else {
    alert.append(error instanceof Error ? error.message : String(error));
  }
  alert.hidden = false;
}

function clearAlert(): void {
  byId('alert').hidden = true;
}

function announce(text: string): void {
  byId('notice').textContent = text;
}

const webhooksView = new WebhooksView(api, {
  onFailure: (error) => handleFailure(error),
  onSuccess: clearAlert,
  announce,
});

const systemsView = new SystemsView(api, {
  onFailure: (error) => handleFailure(error),
  onSuccess: clearAlert,
  announce,
});

const VIEWS = ['processes', 'arrivals', 'webhooks', 'systems'] as const;

/**
 * The processes (list with every filter, and detail), the arrivals (the same list, asked one of
 * two questions), the webhooks or the systems: the view switcher marks the one shown.
 */
function showView(view: (typeof VIEWS)[number]): void {
  const listed = view === 'processes' || view === 'arrivals';
  workspace.hidden = !listed;
  filtersForm.hidden = view === 'arrivals';
  byId('toggle-filters').hidden = view === 'arrivals';
  byId('arrivals').hidden = view !== 'arrivals';
  if (!listed) closeDetail();
  if (view === 'webhooks') void webhooksView.show();
  else webhooksView.hide();
  if (view === 'systems') void systemsView.show();
  else systemsView.hide();
  for (const each of VIEWS) {
    if (each === view) byId(`show-${each}`).setAttribute('aria-current', 'page');
    else byId(`show-${each}`).removeAttribute('aria-current');
  }
}

for (const view of VIEWS) byId(`show-${view}`).addEventListener('click', () => showView(view));

/** The browser's calendar day `days` from today, `YYYY-MM-DD`: the importer's own day. */
function dayFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Each of the Arrivals view's questions, as the list query that answers it. */
const ARRIVAL_QUESTIONS: Record<string, () => ListQuery> = {
  'arriving-week': () => ({ etaFrom: dayFromToday(0), etaTo: dayFromToday(6), sort: 'eta' }),
  'free-time-3d': () => ({
    freeTimeEndsFrom: dayFromToday(0),
    freeTimeEndsTo: dayFromToday(2),
    sort: 'freeTimeEndsAt',
  }),
};
for (const [id, question] of Object.entries(ARRIVAL_QUESTIONS)) {
  byId(id).addEventListener('click', () => {
    for (const other of Object.keys(ARRIVAL_QUESTIONS)) {
      byId(other).setAttribute('aria-pressed', String(other === id));
    }
    void loadPage({ pageSize: query.pageSize ?? 20, ...question() });
  });
}

function showSignedIn(username: string | null): void {
  const signedIn = username !== null;
  signInForm.hidden = signedIn;
  byId('views').hidden = !signedIn;
  showView('processes');
  workspace.hidden = !signedIn;
  byId('sign-out').hidden = !signedIn;
  const who = byId('who');
  who.hidden = !signedIn;
  signedInUser = username;
  who.textContent = signedIn ? t().signedInAs(username) : '';
  if (!signedIn) {
    closeDetail();
    byId('live').hidden = true;
    byId<HTMLInputElement>('password').value = '';
    byId<HTMLInputElement>('username').focus();
  }
}

/** What every failed call ends in: the API's own words, and the sign-in form when the token is gone. */
function handleFailure(error: unknown): void {
  showAlert(error);
  if (error instanceof ApiProblem && error.status === 401) {
    stopFollowing();
    api.signOut();
    showSignedIn(null);
  }
}

signInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const username = byId<HTMLInputElement>('username').value;
  const password = byId<HTMLInputElement>('password').value;
  void (async () => {
    try {
      await api.signIn(username, password);
      clearAlert();
      showSignedIn(username);
      await loadPage(query);
      startFollowing();
    } catch (error) {
      showAlert(error);
    }
  })();
});

byId('sign-out').addEventListener('click', () => {
  stopFollowing();
  api.signOut();
  clearAlert();
  showSignedIn(null);
});

/**
 * A checkbox for each value of a multi-value filter; the checked ones travel as one list. Only
 * the names are worded again when the language changes: what is ticked stays ticked.
 */
function options<V extends string>(
  containerId: string,
  name: string,
  values: readonly V[],
  label: (value: V) => string,
): void {
  const names = values.map((value) => ({ value, name: h('span', {}) }));
  const word = () => {
    for (const each of names) each.name.textContent = label(each.value);
  };
  byId(containerId).append(
    ...names.map((each) =>
      h(
        'label',
        { class: 'option' },
        h('input', { type: 'checkbox', name, value: each.value }),
        ' ',
        each.name,
      ),
    ),
  );
  word();
  onLanguageChange(word);
}
options('status-options', 'status', STATUSES, (status) => t().processStatuses[status]);
options('mode-options', 'mode', MODES, (mode) => t().modes[mode]);
options('channel-options', 'customsChannel', CUSTOMS_CHANNELS, (channel) => t().channels[channel]);

function queryFromFilters(): ListQuery {
  const data = new FormData(filtersForm);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  /** The checked values of a multi-value filter, or nothing when none is checked. */
  const checked = <T extends string>(name: string, values: readonly T[]): T[] | undefined => {
    const chosen = values.filter((value) => data.getAll(name).includes(value));
    return chosen.length > 0 ? chosen : undefined;
  };
  return {
    pageSize: Number(text('pageSize') ?? 20),
    sort: SORT_ORDERS.find((order) => order === text('sort')),
    status: checked('status', STATUSES),
    type: TYPES.find((type) => type === text('type')),
    mode: checked('mode', MODES),
    customsChannel: checked('customsChannel', CUSTOMS_CHANNELS),
    shipmentFrom: text('shipmentFrom'),
    shipmentTo: text('shipmentTo'),
    updatedFrom: text('updatedFrom'),
    updatedTo: text('updatedTo'),
    etaFrom: text('etaFrom'),
    etaTo: text('etaTo'),
    freeTimeEndsFrom: text('freeTimeEndsFrom'),
    freeTimeEndsTo: text('freeTimeEndsTo'),
    delayedByDays: text('delayedByDays') === undefined ? undefined : Number(text('delayedByDays')),
    container: text('container'),
  };
}

byId('toggle-filters').addEventListener('click', (event) => {
  const open = filtersForm.classList.toggle('open');
  (event.currentTarget as HTMLElement).setAttribute('aria-expanded', String(open));
});

filtersForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void loadPage(queryFromFilters());
});
filtersForm.addEventListener('reset', () => {
  setTimeout(() => void loadPage(queryFromFilters()));
});

/**
 * A `Link` target's query, so that paging keeps every filter the API echoed into it; a filter
 * repeated there (`mode=SEA&mode=AIR`) stays a list.
 */
function queryFromLink(target: string): ListQuery {
  const parameters = new URL(target, window.location.href).searchParams;
  const linked: Record<string, string | number | string[]> = {};
  for (const name of new Set(parameters.keys())) {
    const values = parameters.getAll(name);
    linked[name] =
      name === 'page' || name === 'pageSize'
        ? Number(values[0])
        : values.length > 1
          ? values
          : (values[0] ?? '');
  }
  return linked;
}

async function loadPage(next: ListQuery, options: { quiet?: boolean } = {}): Promise<void> {
  try {
    const page = await api.list(next);
    const changed = current?.list !== page.list;
    query = next;
    current = page;
    if (changed) renderResults(page);
    if (!options.quiet) clearAlert();
  } catch (error) {
    handleFailure(error);
  }
}

function renderResults({ list, links }: ListPage): void {
  const { page, totalPages, totalItems } = list.meta;
  byId('results-meta').textContent =
    totalItems === 0 ? t().noMatch : t().resultsCount(totalItems, page, Math.max(totalPages, 1));
  byId('results').replaceChildren(...list.data.map(renderProcess));
  const pager = byId('pager');
  const button = (rel: keyof typeof links, label: string) => {
    const target = links[rel];
    return h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        disabled: target === undefined,
        onclick: () => target && void loadPage(queryFromLink(target)),
      },
      label,
    );
  };
  pager.replaceChildren(
    button('first', t().firstPage),
    button('prev', t().previousPage),
    button('next', t().nextPage),
    button('last', t().lastPage),
  );
}

function renderProcess(process: ProcessSummary): HTMLElement {
  const { summary } = process;
  return h(
    'li',
    { class: 'process', 'data-numero': process.numero },
    h(
      'div',
      { class: 'process-head' },
      h('h3', {}, process.numero),
      h(
        'span',
        { class: `status status-${process.status.toLowerCase()}` },
        t().processStatuses[process.status],
      ),
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => void openDetail(process.numero) },
        t().details,
      ),
    ),
    h(
      'p',
      { class: 'process-summary' },
      `${t().processTypes[summary.type]} · ${t().modes[summary.mode]} · ${summary.origin.name} → ${summary.destination.name}`,
      summary.customerReference ? ` · ${summary.customerReference}` : '',
    ),
    h(
      'p',
      { class: 'process-dates' },
      `${t().shippedOn(formatDate(summary.shipmentDate))} · ${t().etaOn(formatDate(summary.eta))}`,
      renderDelay(summary.etaDelayDays),
      ` · ${t().updatedOn(formatInstant(process.updatedAt))}`,
    ),
    summary.customsChannel === null && summary.freeTimeEndsAt === null
      ? null
      : h(
          'p',
          { class: 'process-customs' },
          summary.customsChannel === null
            ? ''
            : h(
                'span',
                { class: `channel channel-${summary.customsChannel.toLowerCase()}` },
                t().channelNamed(t().channels[summary.customsChannel]),
              ),
          summary.freeTimeEndsAt === null ? '' : ` ${t().freeTimeUntil(formatDate(summary.freeTimeEndsAt))}`,
        ),
    renderTimeline(process),
  );
}

/** How far the ETA moved from the first one announced; nothing when it did not. */
function renderDelay(days: number | null): HTMLElement | null {
  if (days === null || days === 0) return null;
  return h(
    'span',
    { class: days > 0 ? 'delay late' : 'delay early' },
    ` ${days > 0 ? t().late(days) : t().early(-days)}`,
  );
}

async function openDetail(numero: string): Promise<void> {
  try {
    showDetail(await api.detail(numero));
    detailPanel.focus();
  } catch (error) {
    handleFailure(error);
  }
}

function showDetail(detail: ProcessDetail): void {
  shownDetail = detail;
  detailPanel.replaceChildren(...renderDetail(detail, closeDetail));
  detailPanel.hidden = false;
}

function closeDetail(): void {
  shownDetail = null;
  detailPanel.hidden = true;
}

/** Live updates: the change stream when the API has one, else ETag revalidation on a timer. */
function startFollowing(): void {
  stopFollowing();
  const controller = new AbortController();
  following = controller;
  const live = byId('live');
  live.hidden = false;
  const follow = async (): Promise<void> => {
    while (!controller.signal.aborted && api.bearer !== null) {
      const token = api.bearer;
      const outcome = await followChangeStream({
        baseUrl: api.baseUrl,
        token,
        lastEventId,
        signal: controller.signal,
        onEvent: (event) => {
          lastEventId = event.id ?? lastEventId;
          if (event.event === 'change') onChange(event.data);
        },
      });
      if (outcome === 'unavailable') return revalidateEvery(controller.signal);
      if (outcome === 'unauthorized') {
        if ((await api.tokenAfterRefusal(token)) !== null) continue;
        return handleFailure(new ApiProblem(401, t().sessionEnded, t().sessionEndedDetail, []));
      }
      showLive('live');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  showLive('live');
  follow().catch(() => {
    if (!controller.signal.aborted) void revalidateEvery(controller.signal);
  });
}

function stopFollowing(): void {
  following?.abort();
  following = null;
}

function showLive(state: typeof liveState): void {
  liveState = state;
  byId('live').textContent = state === 'live' ? t().live : t().refreshingEvery(refreshSeconds);
}

async function revalidateEvery(signal: AbortSignal): Promise<void> {
  showLive('revalidating');
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, refreshSeconds * 1000));
    if (!signal.aborted && api.signedIn) await loadPage(query, { quiet: true });
  }
}

let reloadPending: ReturnType<typeof setTimeout> | null = null;

function onChange(data: string): void {
  const change = JSON.parse(data) as { numero?: string; kind?: ChangeKind };
  if (change.numero) {
    // A kind newer than this page is still announced, as a change.
    const kind = change.kind === undefined ? undefined : (t().changeKinds[change.kind] as string | undefined);
    announce(`${change.numero}: ${kind ?? t().changed}`);
  }
  // A sync page brings many changes at once: one revalidation for the burst.
  reloadPending ??= setTimeout(() => {
    reloadPending = null;
    void loadPage(query, { quiet: true });
  }, 300);
}

/** The language changed: everything drawn is drawn again in it, the filters and the page kept. */
onLanguageChange(() => {
  if (signedInUser !== null) byId('who').textContent = t().signedInAs(signedInUser);
  if (!byId('live').hidden) showLive(liveState);
  if (current !== null) renderResults(current);
  if (shownDetail !== null) showDetail(shownDetail);
});

followLanguage();
showSignedIn(null);
