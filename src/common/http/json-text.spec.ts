import { JsonText } from './json-text.js';

describe(JsonText.name, () => {
  const item = (value: object) => JsonText.of<object>(JSON.stringify(value));

  it('joins elements into the array JSON.stringify would write', () => {
    const elements = [{ a: 1 }, { b: ['x', null] }, {}];

    expect(JsonText.array(elements.map(item)).text).toBe(JSON.stringify(elements));
    expect(JsonText.array([]).text).toBe('[]');
  });

  it('brackets elements that arrive joined by commas', () => {
    const elements = [{ a: 1 }, { b: 'x,y' }];

    expect(JsonText.arrayOfJoined(elements.map((element) => JSON.stringify(element)).join(',')).text).toBe(
      JSON.stringify(elements),
    );
    expect(JsonText.arrayOfJoined('').bytes).toEqual(Buffer.from('[]'));
  });

  it('writes an object in member order, inserting JsonText members as they are', () => {
    const data = [{ numero: 'IMP-1', note: 'aspas " e \\ barra' }];
    const meta = { page: 1, pageSize: 20, totalItems: 1, totalPages: 1 };

    const body = JsonText.object<{ data: object[]; meta: typeof meta; 'we"ird': null }>({
      data: JsonText.array(data.map(item)),
      meta,
      'we"ird': null,
    });

    expect(body.text).toBe(JSON.stringify({ data, meta, 'we"ird': null }));
    expect(body.parse()).toEqual({ data, meta, 'we"ird': null });
  });

  it('encodes its text to UTF-8 once, however often the bytes are read', () => {
    const body = JsonText.array([item({ note: 'Liberação ✓' }), item({ n: 1 })]);

    expect(body.bytes.toString('utf8')).toBe('[{"note":"Liberação ✓"},{"n":1}]');
    expect(body.bytes).toBe(body.bytes);
  });

  it('encodes the same bytes whether or not its text was read first', () => {
    const build = () =>
      JsonText.object({ data: JsonText.array([item({ note: 'São Paulo — 😀' }), item({})]), meta: { n: 1 } });
    const textFirst = build();
    const expected = Buffer.from(textFirst.text);

    expect(build().bytes).toEqual(expected);
    expect(textFirst.bytes).toEqual(expected);
    expect(JsonText.array([]).bytes).toEqual(Buffer.from('[]'));
  });

  describe('fingerprint', () => {
    const digested = (value: object, digest: string) => JsonText.of<object>(JSON.stringify(value), digest);
    const page = (...items: Array<JsonText<object>>) =>
      JsonText.object({ data: JsonText.array(items), meta: { page: 1 } });

    it('is the text itself when no piece carries a digest', () => {
      const body = page(item({ numero: 'IMP-1' }), item({ numero: 'IMP-2' }));

      expect(body.fingerprint).toBe(body.text);
    });

    it("takes each digested piece's digest in place of its text, the rest as it is", () => {
      const long = { numero: 'IMP-1', follow: Array.from({ length: 50 }, (_, id) => ({ id })) };
      const body = page(digested(long, 'd1'), digested({ numero: 'IMP-2' }, 'd2'));

      expect(body.text).toBe(JSON.stringify({ data: [long, { numero: 'IMP-2' }], meta: { page: 1 } }));
      expect(body.fingerprint).toBe('{"data":[\u0000d1,\u0000d2],"meta":{"page":1}}');
    });

    it('is equal for pages built alike from equal items, and differs when an item or the rest does', () => {
      const one = () => page(digested({ numero: 'IMP-1' }, 'd1'), digested({ numero: 'IMP-2' }, 'd2'));

      expect(one().fingerprint).toBe(one().fingerprint);
      expect(
        page(digested({ numero: 'IMP-1' }, 'd1'), digested({ numero: 'IMP-3' }, 'd3')).fingerprint,
      ).not.toBe(one().fingerprint);
      expect(
        JsonText.object({ data: JsonText.array([digested({}, 'd1'), digested({}, 'd2')]), meta: { page: 2 } })
          .fingerprint,
      ).not.toBe(one().fingerprint);
    });
  });
});
