import { jest } from '@jest/globals';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { InvalidRequestException } from '../problems/problem.exception.js';
import { ProblemValidationPipe } from './problem-validation.pipe.js';

class Address {
  @IsString()
  @Length(5, 5)
  code!: string;
}

class ShipmentRequest {
  @IsString()
  @Length(1, 128)
  name!: string;

  @ValidateNested()
  @Type(() => Address)
  origin!: Address;
}

class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize?: number;
}

class NumeroParams {
  @Matches(/^[A-Za-z0-9._-]{1,40}$/)
  numero!: string;
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

async function refusal(promise: Promise<unknown>): Promise<InvalidRequestException> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InvalidRequestException);
  return error as InvalidRequestException;
}

describe(ProblemValidationPipe.name, () => {
  const sut = new ProblemValidationPipe();

  it('returns a valid body as an instance of its DTO', async () => {
    const value = await sut.transform({ name: 'a', origin: { code: 'BRSSZ' } }, body(ShipmentRequest));

    expect(value).toBeInstanceOf(ShipmentRequest);
    expect(value).toEqual({ name: 'a', origin: { code: 'BRSSZ' } });
  });

  it.each([
    [
      'body',
      'body',
      { type: 'body', metatype: ShipmentRequest },
      { name: 1, origin: { code: 'BRSSZ' } },
      'name',
    ],
    ['query', 'query', { type: 'query', metatype: PageQuery }, { pageSize: '500' }, 'pageSize'],
    ['param', 'path', { type: 'param', metatype: NumeroParams }, { numero: 'a b' }, 'numero'],
  ] as const)('places a %s failure in "%s"', async (_type, location, metadata, value, name) => {
    const error = await refusal(sut.transform(value, metadata));

    expect(error.errors).toEqual([{ in: location, name, message: expect.any(String) }]);
    expect(error.errors[0]!.message.startsWith(name)).toBe(false);
  });

  it('names nested fields with their path', async () => {
    const error = await refusal(
      sut.transform({ name: 'a', origin: { code: 'SANTOS' } }, body(ShipmentRequest)),
    );

    expect(error.errors).toEqual([
      { in: 'body', name: 'origin.code', message: 'must be shorter than or equal to 5 characters' },
    ]);
  });

  it('lists every offending field, one message each', async () => {
    const error = await refusal(sut.transform({ name: '', origin: 'Santos' }, body(ShipmentRequest)));

    expect(error.errors.map((fieldError) => fieldError.name).sort()).toEqual(['name', 'origin']);
  });

  it('refuses an unknown property by name', async () => {
    const error = await refusal(
      sut.transform({ name: 'a', origin: { code: 'BRSSZ' }, role: 'staff' }, body(ShipmentRequest)),
    );

    expect(error.errors).toEqual([{ in: 'body', name: 'role', message: 'unknown field' }]);
  });

  it.each(['constructor', '__proto__', 'toString', 'prototype', 'hasOwnProperty', 'valueOf'])(
    'refuses an unknown member named like a built-in of JavaScript, %s',
    async (name) => {
      const value = JSON.parse(`{"name":"a","origin":{"code":"BRSSZ"},"${name}":1}`) as unknown;

      const error = await refusal(sut.transform(value, body(ShipmentRequest)));

      expect(error.errors).toEqual([{ in: 'body', name, message: 'unknown field' }]);
    },
  );

  it('refuses a query parameter named like a built-in', async () => {
    const error = await refusal(sut.transform({ constructor: '1' }, { type: 'query', metatype: PageQuery }));

    expect(error.errors).toEqual([{ in: 'query', name: 'constructor', message: 'unknown parameter' }]);
  });

  it('refuses a NUL anywhere in text, with a DTO or without, naming where', async () => {
    const inBody = await refusal(
      sut.transform({ name: 'a\0b', origin: { code: '\0BRSZ' } }, body(ShipmentRequest)),
    );
    const inPath = await refusal(sut.transform('a\0', { type: 'param', metatype: String, data: 'id' }));

    const message = 'must not contain a NUL character (U+0000)';
    expect(inBody.errors).toEqual([
      { in: 'body', name: 'name', message },
      { in: 'body', name: 'origin.code', message },
    ]);
    expect(inPath.errors).toEqual([{ in: 'path', name: 'id', message }]);
  });

  it('refuses an unknown query parameter as such', async () => {
    const error = await refusal(sut.transform({ foo: '1' }, { type: 'query', metatype: PageQuery }));

    expect(error.errors).toEqual([{ in: 'query', name: 'foo', message: 'unknown parameter' }]);
  });

  it.each([
    ['an array', [{ name: 'a' }]],
    ['a string', 'name=a'],
    ['null', null],
    ['a number', 42],
  ])('refuses %s as a body', async (_case, value) => {
    const error = await refusal(sut.transform(value, body(ShipmentRequest)));

    expect(error.errors).toEqual([{ in: 'body', name: 'body', message: 'must be a JSON object' }]);
  });

  it('leaves values without a DTO alone', async () => {
    expect(await sut.transform('raw', { type: 'param', metatype: String, data: 'numero' })).toBe('raw');
    expect(await sut.transform(['x'], { type: 'custom' })).toEqual(['x']);
  });

  describe('query and path parameters validated before', () => {
    const query: ArgumentMetadata = { type: 'query', metatype: PageQuery };

    it('give the same frozen DTO again without validating them again', async () => {
      const pipe = new ProblemValidationPipe();
      const first = await pipe.transform({ pageSize: '20' }, query);
      const validate = jest.spyOn(ValidationPipe.prototype, 'transform');

      const again = await pipe.transform({ pageSize: '20' }, query);

      expect(again).toBe(first);
      expect(again).toEqual(Object.assign(new PageQuery(), { pageSize: 20 }));
      expect(Object.isFrozen(again)).toBe(true);
      expect(validate).not.toHaveBeenCalled();
      validate.mockRestore();
    });

    it('are told apart by their values and by their DTO class', async () => {
      const pipe = new ProblemValidationPipe();
      const twenty = await pipe.transform({ pageSize: '20' }, query);

      expect(await pipe.transform({ pageSize: '30' }, query)).toEqual(
        Object.assign(new PageQuery(), { pageSize: 30 }),
      );
      // Valid for one class, the same values are still checked against another, and refused.
      const error = await refusal(
        pipe.transform({ pageSize: '20' }, { type: 'param', metatype: NumeroParams }),
      );
      expect(error.errors.map((fieldError) => fieldError.name)).toEqual(['pageSize', 'numero']);
      expect(await pipe.transform({ pageSize: '20' }, query)).toBe(twenty);
    });

    it('are refused every time when invalid', async () => {
      const pipe = new ProblemValidationPipe();

      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await refusal(pipe.transform({ pageSize: '500' }, query));
        expect(error.errors).toEqual([{ in: 'query', name: 'pageSize', message: expect.any(String) }]);
      }
    });

    it('leave bodies out: a body is validated every time', async () => {
      const pipe = new ProblemValidationPipe();
      const shipment = { name: 'x', origin: { code: '12345' } };
      const first = await pipe.transform(shipment, body(ShipmentRequest));

      expect(await pipe.transform(shipment, body(ShipmentRequest))).not.toBe(first);
    });
  });
});
