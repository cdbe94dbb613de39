import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { ProcessVisibility } from './process-visibility.js';

const customer: AuthenticatedUser = {
  id: 'u1',
  username: 'acme',
  role: 'customer',
  customerIds: ['C1', 'C2'],
};
const staff: AuthenticatedUser = { id: 'u2', username: 'ops', role: 'staff', customerIds: ['C1'] };
const stranger: AuthenticatedUser = { id: 'u3', username: 'new', role: 'customer', customerIds: [] };

describe(ProcessVisibility.name, () => {
  const sut = new ProcessVisibility();

  describe('of', () => {
    it("limits a customer user to that user's customers", () => {
      expect(sut.of(customer)).toEqual({ customerIds: ['C1', 'C2'] });
    });

    it('gives staff every customer, whatever customers the account lists', () => {
      expect(sut.of(staff)).toEqual({ customerIds: null });
    });

    it('gives a customer user without customers nothing', () => {
      expect(sut.of(stranger)).toEqual({ customerIds: [] });
    });
  });

  describe('includes', () => {
    it.each([
      [customer, 'C1', true],
      [customer, 'C2', true],
      [customer, 'C3', false],
      [staff, 'C3', true],
      [stranger, 'C1', false],
    ])('answers for %j and customer %s: %s', (caller, customerId, expected) => {
      expect(sut.includes(sut.of(caller), customerId)).toBe(expected);
    });
  });

  describe('filter', () => {
    const items = [{ customerId: 'C3' }, { customerId: 'C1' }, { customerId: 'C2' }, { customerId: 'C1' }];

    it('keeps the visible customers’ items in their order', () => {
      expect(sut.filter(sut.of(customer), items)).toEqual([
        { customerId: 'C1' },
        { customerId: 'C2' },
        { customerId: 'C1' },
      ]);
    });

    it('keeps nothing for a caller without customers', () => {
      expect(sut.filter(sut.of(stranger), items)).toEqual([]);
    });

    it('hands staff the same items, uncopied', () => {
      expect(sut.filter(sut.of(staff), items)).toBe(items);
    });
  });
});
