import { plainToInstance } from 'class-transformer';
import { unmappedParameters } from '../../testing/query-parameter-mapping.js';
import { DEFAULT_DELIVERIES_LIMIT, ListWebhookDeliveriesQueryDto } from './webhook.query.dto.js';

describe(ListWebhookDeliveriesQueryDto.name, () => {
  it('reads the limit, the attempts to go back from and the outcome; by default the newest 20 of both', () => {
    expect(
      plainToInstance(ListWebhookDeliveriesQueryDto, {
        limit: '5',
        after: '77',
        outcome: 'failed',
      }).toCriteria(),
    ).toEqual({ limit: 5, before: 77, outcome: 'failed' });
    expect(plainToInstance(ListWebhookDeliveriesQueryDto, {}).toCriteria()).toEqual({
      limit: DEFAULT_DELIVERIES_LIMIT,
      before: null,
      outcome: null,
    });
  });

  it('maps every parameter it validates', () => {
    const samples = { limit: '5', after: '77', outcome: 'succeeded' };

    expect(unmappedParameters(ListWebhookDeliveriesQueryDto, samples, (query) => query.toCriteria())).toEqual(
      [],
    );
  });
});
