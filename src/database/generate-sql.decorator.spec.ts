import { GenerateSql, NotAStatement, sqlDeclarationsOf } from './generate-sql.decorator.js';

class ExampleRepository {
  @GenerateSql({ name: 'by id', params: [1] }, { name: 'by another id', params: [2] })
  find(id: number): Promise<number> {
    return Promise.resolve(id);
  }

  @NotAStatement('answers from memory')
  cached(): Promise<number> {
    return Promise.resolve(0);
  }

  undeclared(): Promise<number> {
    return Promise.resolve(0);
  }
}

class PlainRepository {}

describe('GenerateSql', () => {
  it('records the examples of a method, in order, and the reason of a method that sends nothing', () => {
    const declarations = sqlDeclarationsOf(ExampleRepository);

    expect([...declarations.keys()]).toEqual(['find', 'cached']);
    expect(declarations.get('find')).toEqual({
      sends: 'statements',
      examples: [
        { name: 'by id', params: [1] },
        { name: 'by another id', params: [2] },
      ],
    });
    expect(declarations.get('cached')).toEqual({ sends: 'nothing', reason: 'answers from memory' });
  });

  it('has nothing for a class that declares nothing', () => {
    expect(sqlDeclarationsOf(PlainRepository).size).toBe(0);
  });
});
