import { JsonText } from './json-text.js';

describe(JsonText.name, () => {
  const item = (value: object) => JsonText.of<object>(JSON.stringify(value));

  it('joins elements into the array JSON.stringify would write', () => {
    const elements = [{ a: 1 }, { b: ['x', null] }, {}];

    expect(JsonText.array(elements.map(item)).text).toBe(JSON.stringify(elements));
    expect(JsonText.array([]).text).toBe('[]');
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
});
