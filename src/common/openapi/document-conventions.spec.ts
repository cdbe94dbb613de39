import type { OpenAPIObject } from '@nestjs/swagger';
import { applyDocumentConventions } from './document-conventions.js';

const documentWith = (schemas: Record<string, object>) =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas },
  }) as OpenAPIObject;

describe(applyDocumentConventions.name, () => {
  it('writes nullable fields as OpenAPI 3.1 does: null in the type and in the enum', () => {
    const sut = applyDocumentConventions(
      documentWith({
        Thing: {
          type: 'object',
          properties: {
            note: { type: 'string', nullable: true },
            channel: { type: 'string', nullable: true, enum: ['RED', 'GREEN'] },
            count: { type: 'integer', nullable: false },
          },
        },
      }),
      {},
    );

    expect(sut.components?.schemas?.Thing).toEqual({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        channel: { type: ['string', 'null'], enum: ['RED', 'GREEN', null] },
        count: { type: 'integer' },
      },
    });
  });

  it('refuses a nullable without a type beside it, which 3.1 could not express', () => {
    expect(() =>
      applyDocumentConventions(documentWith({ Thing: { allOf: [], nullable: true } }), {}),
    ).toThrow('nullable needs a type beside it');
  });
});
