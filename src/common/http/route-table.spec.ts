import type { HttpAdapterHost } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { RouteTable } from './route-table.js';

describe(RouteTable.name, () => {
  const noop = () => {};
  const adapter = new ExpressAdapter();
  adapter.get('/api/processes', noop);
  adapter.get('/api/processes/:numero', noop);
  adapter.post('/api/auth/login', noop);
  adapter.all('/api/tracking', noop);
  const sut = new RouteTable({ httpAdapter: adapter } as unknown as HttpAdapterHost);

  it.each([
    ['/api/processes', ['GET', 'HEAD']],
    ['/api/processes/IMP-2026-000123', ['GET', 'HEAD']],
    ['/api/auth/login', ['POST']],
    ['/api/auth/login/', ['POST']],
    ['/nowhere', []],
    ['/api/processes/a/b', []],
  ])('answers the methods served on %s', (path, methods) => {
    expect(sut.allowedMethods(path)).toEqual(methods);
  });

  it('does not count a route for every method as a method', () => {
    expect(sut.allowedMethods('/api/tracking')).not.toContain('_ALL');
  });

  it('answers nothing before the HTTP server exists', () => {
    expect(new RouteTable({} as HttpAdapterHost).allowedMethods('/api/processes')).toEqual([]);
  });
});
