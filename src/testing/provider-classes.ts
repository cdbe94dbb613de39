import { MODULE_METADATA } from '@nestjs/common/constants.js';
import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';

export type ProviderClass = Type<unknown>;

type ModuleEntry = Type<unknown> | DynamicModule | ForwardReference | Promise<DynamicModule>;

/**
 * Every class a module and the modules it imports, however deep, provide (`useClass` included),
 * read from their metadata: nothing is instantiated, so no configuration or connection is needed.
 */
export function providerClassesOf(root: Type<unknown>): ProviderClass[] {
  const visited = new Set<unknown>();
  const found = new Set<ProviderClass>();
  const visit = (entry: ModuleEntry | undefined): void => {
    if (entry === undefined || entry instanceof Promise || visited.has(entry)) return;
    visited.add(entry);
    if ('forwardRef' in entry) return visit(entry.forwardRef() as ModuleEntry);
    const [type, dynamic] = 'module' in entry ? [entry.module, entry] : [entry, undefined];
    const metadata = <T>(key: string): T[] => (Reflect.getMetadata(key, type) as T[] | undefined) ?? [];
    for (const provider of [
      ...metadata<Provider>(MODULE_METADATA.PROVIDERS),
      ...(dynamic?.providers ?? []),
    ]) {
      const providerClass =
        typeof provider === 'function' ? provider : 'useClass' in provider ? provider.useClass : null;
      if (providerClass !== null) found.add(providerClass);
    }
    for (const imported of [...metadata<ModuleEntry>(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) {
      visit(imported as ModuleEntry);
    }
  };
  visit(root);
  return [...found];
}
