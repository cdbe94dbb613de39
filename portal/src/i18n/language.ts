/** The languages the portal speaks: the tag `<html lang>` carries, and the locale its dates and numbers follow. */
export const LANGUAGES = {
  // Day before month, as the portal's users (at Brazilian importers) read dates in English too.
  en: { formats: 'en-GB' },
  'pt-BR': { formats: 'pt-BR' },
} as const;
export type Language = keyof typeof LANGUAGES;

export const LANGUAGE_STORAGE_KEY = 'portal.language';

/**
 * The language to start in: the one chosen on this page before, else the browser's first
 * Portuguese preference (any `pt*`) makes it Brazilian Portuguese, else English.
 */
export function initialLanguage(stored: string | null, preferred: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  return preferred.some((tag) => /^pt\b/i.test(tag)) ? 'pt-BR' : 'en';
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && Object.hasOwn(LANGUAGES, value);
}

let current: Language = 'en';
const listeners = new Set<() => void>();

export function language(): Language {
  return current;
}

/** Switches the language; every listener re-renders what it drew in the previous one. */
export function setLanguage(next: Language): void {
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

export function onLanguageChange(listener: () => void): void {
  listeners.add(listener);
}
