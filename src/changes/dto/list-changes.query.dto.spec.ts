import { plainToInstance } from 'class-transformer';
import { unmappedParameters } from '../../testing/query-parameter-mapping.js';
import { encodeCursor } from '../change-cursor.js';
import {
  ChangesStartQueryDto,
  DEFAULT_CHANGES_LIMIT,
  ListChangesQueryDto,
} from './list-changes.query.dto.js';

const start = { after: encodeCursor(42), since: '2026-03-14T12:00:00Z' };

describe(ListChangesQueryDto.name, () => {
  it('reads the start and the limit, 100 by default', () => {
    expect(plainToInstance(ListChangesQueryDto, { after: start.after, limit: '5' }).toCriteria()).toEqual({
      start: { after: start.after, since: undefined },
      limit: 5,
    });
    expect(plainToInstance(ListChangesQueryDto, {}).toCriteria().limit).toBe(DEFAULT_CHANGES_LIMIT);
  });

  it('maps every parameter it validates', () => {
    const samples = { ...start, limit: '5' };

    expect(unmappedParameters(ListChangesQueryDto, samples, (query) => query.toCriteria())).toEqual([]);
  });
});

describe(ChangesStartQueryDto.name, () => {
  it('maps every parameter it validates into where the stream starts', () => {
    expect(unmappedParameters(ChangesStartQueryDto, start, (query) => query.toStart())).toEqual([]);
  });
});
