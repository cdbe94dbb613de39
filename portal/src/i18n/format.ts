import { LANGUAGES, language, type Language } from './language';

/** Intl formatters cost a little to build: one of each per language, made when first used. */
function perLanguage<F>(make: (locale: string) => F): () => F {
  const made = new Map<Language, F>();
  return () => {
    const chosen = language();
    let formatter = made.get(chosen);
    if (formatter === undefined) {
      formatter = make(LANGUAGES[chosen].formats);
      made.set(chosen, formatter);
    }
    return formatter;
  };
}

// Dates and instants are the API's, in UTC: shown in UTC, as the API and its other clients show them.
const dateFormat = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }),
);
const instantFormat = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      day: '2-digit',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
      timeZoneName: 'short',
    }),
);
const numberFormat = perLanguage((locale) => new Intl.NumberFormat(locale));
const daysFormat = perLanguage(
  (locale) => new Intl.NumberFormat(locale, { style: 'unit', unit: 'day', unitDisplay: 'long' }),
);
const millisecondsFormat = perLanguage(
  (locale) => new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' }),
);

/** `YYYY-MM-DD` as a readable date, or a dash. */
export function formatDate(value: string | null | undefined): string {
  return value ? dateFormat().format(new Date(`${value}T00:00:00Z`)) : '—';
}

export function formatInstant(value: string | null | undefined): string {
  return value ? instantFormat().format(new Date(value)) : '—';
}

export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

/** A count of days with its unit, in words ("3 days", "3 dias"). */
export function formatDays(count: number): string {
  return daysFormat().format(count);
}

export function formatMilliseconds(value: number): string {
  return millisecondsFormat().format(value);
}
