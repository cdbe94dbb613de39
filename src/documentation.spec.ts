import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((file) => `docs/${file}`)].filter(
  (file) => file.endsWith('.md'),
);

/** What git ignores (build output, reports): named by the docs, absent from a fresh checkout. */
const IGNORED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
  .filter((line) => line.length > 0 && !line.includes('*'));
const TOP_LEVEL = readdirSync(ROOT).filter((entry) => !IGNORED.includes(entry));

/**
 * The repository paths a document names: link targets (relative to the document), and code spans
 * that are one path starting at a top-level entry (relative to the root). Placeholders
 * (`src/<feature>/`), globs and paths inside fenced blocks are not paths to check.
 */
function namedPaths(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.replace(/#.*$/, ''))
    .filter((target) => target.length > 0 && !/^[a-z]+:/.test(target))
    .map((target) => relative(ROOT, resolve(ROOT, dirname(document), target)));
  const spans = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!.replace(/[:,.]$/, ''))
    .filter((span) => TOP_LEVEL.includes(span.split('/')[0]!) && span.includes('/'));
  return [...links, ...spans].filter(
    (path) =>
      !/[<>*{}…$]/.test(path) &&
      !IGNORED.some((ignored) => path === ignored || path.startsWith(`${ignored}/`)),
  );
}

describe('the documentation', () => {
  it.each(DOCUMENTS)('%s names only paths that exist', (document) => {
    const missing = namedPaths(document).filter((path) => !existsSync(join(ROOT, path)));

    expect(missing).toEqual([]);
  });

  it('finds the paths the guides name', () => {
    expect(namedPaths('docs/extending.md')).toEqual(
      expect.arrayContaining([
        'src/operations/operations.gateway.ts',
        'sandbox/src/server/sandbox.server.ts',
      ]),
    );
  });
});
