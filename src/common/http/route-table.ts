import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

interface RouterLayer {
  match(path: string): boolean;
  route?: { methods: Record<string, boolean> };
}

/**
 * Answers which methods the application serves on a path, from Express's own router, so a
 * request that matched no route can be told apart: unknown path (404) or other method (405).
 */
@Injectable()
export class RouteTable {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  allowedMethods(path: string): string[] {
    const app = this.adapterHost.httpAdapter?.getInstance<{ router?: { stack: RouterLayer[] } }>();
    const methods = new Set<string>();
    for (const layer of app?.router?.stack ?? []) {
      if (layer.route === undefined || !layer.match(path)) continue;
      for (const [method, enabled] of Object.entries(layer.route.methods)) {
        if (enabled && method !== '_all') methods.add(method.toUpperCase());
      }
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}
