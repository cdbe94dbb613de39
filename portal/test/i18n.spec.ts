import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { en } from '../src/i18n/en';
import { formatDate, formatDays, formatInstant, formatNumber } from '../src/i18n/format';
import { initialLanguage, LANGUAGES, setLanguage, type Language } from '../src/i18n/language';
import { CATALOGUES } from '../src/i18n/messages';

const PORTAL = join(import.meta.dirname, '..');

/** Every `path.to.text` a catalogue holds: the paths of its nested tables' entries too. */
function paths(catalogue: object, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? paths(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

function valueAt(catalogue: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, part) => (value as Record<string, unknown>)?.[part], catalogue);
}

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

const page = readFileSync(join(PORTAL, 'index.html'), 'utf8');
/** The catalogue paths `index.html` names (`data-i18n`, `data-i18n-<attribute>`). */
const pagePaths = [...page.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map(([, path]) => path!);
/** The top-level keys the code reads, always as `t().key`. */
const codeKeys = sources(join(PORTAL, 'src')).flatMap((source) =>
  [...source.matchAll(/\bt\(\)\.(\w+)/g)].map(([, key]) => key!),
);

describe('the portal’s catalogues', () => {
  const languages = Object.keys(LANGUAGES) as Language[];

  it.each(languages)('%s has every text of every other catalogue, and of the same kind', (language) => {
    const catalogue = CATALOGUES[language];
    for (const other of languages) {
      expect(paths(catalogue).sort()).toEqual(paths(CATALOGUES[other]).sort());
      for (const path of paths(catalogue)) {
        const [mine, theirs] = [valueAt(catalogue, path), valueAt(CATALOGUES[other], path)];
        expect([path, typeof mine, typeof mine === 'function' ? (mine as () => string).length : 0]).toEqual([
          path,
          typeof theirs,
          typeof theirs === 'function' ? (theirs as () => string).length : 0,
        ]);
      }
    }
  });

  it.each(languages)('%s words every text, none empty', (language) => {
    const empty = paths(CATALOGUES[language]).filter((path) => valueAt(CATALOGUES[language], path) === '');
    expect(empty).toEqual([]);
  });

  it('has no text that neither the page nor the code uses', () => {
    const used = new Set([...codeKeys, ...pagePaths.map((path) => path.split('.')[0]!)]);
    expect(Object.keys(en).filter((key) => !used.has(key))).toEqual([]);
  });

  it('has a text for every path the page names, in every language', () => {
    for (const language of languages) {
      const missing = pagePaths.filter((path) => typeof valueAt(CATALOGUES[language], path) !== 'string');
      expect({ language, missing }).toEqual({ language, missing: [] });
    }
  });

  it('leaves no words in index.html outside the catalogue', () => {
    // Text between tags, but for code (`webhook-id`) and the languages named in themselves.
    const words = [
      ...page
        .replace(
          /<head>[\s\S]*<\/head>|<code>[^<]*<\/code>|<option[^>]* lang="[^"]+">[^<]*<\/option>|<!--[\s\S]*?-->/g,
          '',
        )
        .matchAll(/>([^<]*)</g),
    ]
      .map(([, text]) => text!.trim())
      .filter((text) => text !== '' && !/^\d+$/.test(text));
    expect(words).toEqual([]);
    expect(page.match(/ (aria-label|placeholder|title)="/g)).toBeNull();
  });
});

describe(initialLanguage.name, () => {
  it('speaks Brazilian Portuguese to a browser that prefers any Portuguese', () => {
    expect(initialLanguage(null, ['pt-BR', 'en'])).toBe('pt-BR');
    expect(initialLanguage(null, ['pt'])).toBe('pt-BR');
    expect(initialLanguage(null, ['es', 'PT-pt'])).toBe('pt-BR');
  });

  it('speaks English to any other browser', () => {
    expect(initialLanguage(null, ['en-US'])).toBe('en');
    expect(initialLanguage(null, ['es-AR', 'fr'])).toBe('en');
    expect(initialLanguage(null, [])).toBe('en');
    // `ptx` is not Portuguese.
    expect(initialLanguage(null, ['ptx'])).toBe('en');
  });

  it('keeps the language chosen on the page before, whatever the browser prefers', () => {
    expect(initialLanguage('en', ['pt-BR'])).toBe('en');
    expect(initialLanguage('pt-BR', ['en'])).toBe('pt-BR');
    expect(initialLanguage('klingon', ['pt-BR'])).toBe('pt-BR');
  });
});

describe('formatting for the language', () => {
  afterEach(() => setLanguage('en'));

  it('writes dates, instants, numbers and days the English way', () => {
    setLanguage('en');
    expect(formatDate('2026-03-24')).toBe('24 Mar 2026');
    expect(formatInstant('2026-03-24T09:05:00Z')).toBe('24 Mar, 09:05 UTC');
    expect(formatNumber(12345.5)).toBe('12,345.5');
    expect([formatDays(1), formatDays(3)]).toEqual(['1 day', '3 days']);
  });

  it('writes them the Brazilian way in Portuguese', () => {
    setLanguage('pt-BR');
    expect(formatDate('2026-03-24')).toBe('24 de mar. de 2026');
    expect(formatInstant('2026-03-24T09:05:00Z')).toBe('24 de mar., 09:05 UTC');
    expect(formatNumber(12345.5)).toBe('12.345,5');
    expect([formatDays(1), formatDays(3)]).toEqual(['1 dia', '3 dias']);
  });

  it('shows a missing date as a dash in every language', () => {
    setLanguage('pt-BR');
    expect([formatDate(null), formatInstant(undefined)]).toEqual(['—', '—']);
  });
});
