import type {
  CustomsChannelFilter,
  ProcessStatus,
  ProcessType,
  TransportMode,
} from '../domain/process.vocabulary.js';

export const PROCESS_SORTS = [
  'updatedAt',
  '-updatedAt',
  'shipmentDate',
  '-shipmentDate',
  'numero',
  '-numero',
  'eta',
  '-eta',
  'freeTimeEndsAt',
  '-freeTimeEndsAt',
] as const;
export type ProcessSort = (typeof PROCESS_SORTS)[number];

/** A validated list request in our terms: half-open instant ranges, dates as `YYYY-MM-DD`. */
export interface ProcessListCriteria {
  page: number;
  pageSize: number;
  statuses: ProcessStatus[] | null;
  types: ProcessType[] | null;
  modes: TransportMode[] | null;
  customsChannels: CustomsChannelFilter[] | null;
  shipmentFrom: string | null;
  shipmentTo: string | null;
  /** Inclusive lower bound. */
  updatedFrom: Date | null;
  /** Exclusive upper bound (an inclusive instant plus 1 ms, or the day after a date). */
  updatedBefore: Date | null;
  container: string | null;
  etaFrom: string | null;
  etaTo: string | null;
  freeTimeEndsFrom: string | null;
  freeTimeEndsTo: string | null;
  /** At least this many days later than the original ETA. */
  delayedByDays: number | null;
  sort: ProcessSort;
}

/** The list's first page of 20 with no filter, newest update first: what a request without parameters asks. */
export const UNFILTERED_LIST: ProcessListCriteria = {
  page: 1,
  pageSize: 20,
  statuses: null,
  types: null,
  modes: null,
  customsChannels: null,
  shipmentFrom: null,
  shipmentTo: null,
  updatedFrom: null,
  updatedBefore: null,
  container: null,
  etaFrom: null,
  etaTo: null,
  freeTimeEndsFrom: null,
  freeTimeEndsTo: null,
  delayedByDays: null,
  sort: '-updatedAt',
};

/** The criteria that filter, as opposed to paging and order: each must be read by a list filter. */
export type FilterCriterion = Exclude<keyof ProcessListCriteria, 'page' | 'pageSize' | 'sort'>;
