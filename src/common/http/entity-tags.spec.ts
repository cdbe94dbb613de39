import { ifNoneMatchMatches, weakEntityTag } from './entity-tags.js';

describe(ifNoneMatchMatches.name, () => {
  const current = weakEntityTag('abc123');

  it.each([
    ['the same weak tag', 'W/"abc123"'],
    ['the strong form of it (weak comparison)', '"abc123"'],
    ['a list that holds it', '"other", W/"abc123" , "more"'],
    ['a list without spaces', '"x",W/"abc123"'],
    ['the wildcard', '*'],
    ['the wildcard with spaces', '  * '],
  ])('matches %s', (_case, header) => {
    expect(ifNoneMatchMatches(header, current)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['another tag', '"abc124"'],
    ['an unquoted tag', 'abc123'],
    ['a tag cut short', '"abc12'],
    ['a tag that only contains it', '"xabc123"'],
    ['an empty list', ' , '],
    ['a quoted comma that is not a separator', '"abc,123"'],
  ])('does not match %s', (_case, header) => {
    expect(ifNoneMatchMatches(header, current)).toBe(false);
  });

  it('takes a comma inside quotes as part of a tag', () => {
    expect(ifNoneMatchMatches('"a,b", "c"', weakEntityTag('a,b'))).toBe(true);
  });
});
