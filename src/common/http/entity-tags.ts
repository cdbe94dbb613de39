/**
 * Entity tags and `If-None-Match` as RFC 9110 defines them (§8.8.3, §13.1.2), evaluated by the
 * service itself: Express's `req.fresh` gives up whenever the request says `Cache-Control:
 * no-cache`, which browsers and Node's `fetch` add to every revalidation they send.
 */

/**
 * A weak tag for `opaque` (the quoted part's content). Process tags cover the data but not how
 * it is written (gzip or not, the detail's `enrichment`): semantic equivalence, a weak validator.
 */
export function weakEntityTag(opaque: string): string {
  return `W/"${opaque}"`;
}

/** `W/"x"` and `"x"` compare equal under the weak comparison: only the opaque parts count. */
function opaquePart(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * Whether an `If-None-Match` field value matches `currentTag` under the weak comparison: `*`
 * matches any current representation, otherwise any listed tag with the same opaque part. A
 * malformed member matches nothing (the request then gets the full answer).
 */
export function ifNoneMatchMatches(fieldValue: string | undefined, currentTag: string): boolean {
  if (fieldValue === undefined) return false;
  const value = fieldValue.trim();
  if (value === '*') return true;
  const current = opaquePart(currentTag);
  return splitTags(value).some((tag) => ENTITY_TAG.test(tag) && opaquePart(tag) === current);
}

/** Members of a tag list; commas inside the quotes are part of a tag. */
function splitTags(value: string): string[] {
  const tags: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      tags.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  tags.push(current.trim());
  return tags.filter((tag) => tag.length > 0);
}
