import { DatabaseOutageClassifier } from './database-outage.classifier.js';

describe(DatabaseOutageClassifier.name, () => {
  const sut = new DatabaseOutageClassifier();

  it('answers a lost database with a 5-second Retry-After and a sentence naming no query', () => {
    const lost = new Error('Failed query: select * from users', {
      cause: Object.assign(new Error('terminating connection'), { code: '57P01' }),
    });

    expect(sut.classify(lost)).toEqual({
      detail: expect.stringMatching(/^The service cannot reach its database right now/),
      retryAfterSeconds: 5,
    });
  });

  it('leaves a failing statement to be a bug', () => {
    expect(sut.classify(Object.assign(new Error('syntax error'), { code: '42601' }))).toBeNull();
  });
});
