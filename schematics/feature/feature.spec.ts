import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { HostTree } from '@angular-devkit/schematics';
import { SchematicTestRunner } from '@angular-devkit/schematics/testing';

const ROOT = join(import.meta.dirname, '../..');
const EDITED = ['src/app.module.ts', 'src/config/app.config.ts', '.dependency-cruiser.mjs', '.env.example'];

/** A tree holding the repository's files the generator edits, as they are now. */
function repositoryTree(): HostTree {
  const tree = new HostTree();
  for (const path of EDITED) tree.create(path, readFileSync(join(ROOT, path)));
  return tree;
}

describe('nest g feature', () => {
  const runner = new SchematicTestRunner(
    '@process-lookup/schematics',
    createRequire(import.meta.url).resolve('../collection.json'),
  );

  // The two specs that read what it writes read one run: formatting the files costs a second.
  let tree: Awaited<ReturnType<typeof runner.runSchematic>>;
  beforeAll(async () => {
    tree = await runner.runSchematic('feature', { name: 'customs-invoices' }, repositoryTree());
  });

  it('writes the module, its specs for every tier and its config, named after the feature', () => {
    expect(tree.files.filter((path) => !EDITED.includes(path.slice(1))).sort()).toEqual([
      '/src/customs-invoices/customs-invoices.config.ts',
      '/src/customs-invoices/customs-invoices.controller.ts',
      '/src/customs-invoices/customs-invoices.module.ts',
      '/src/customs-invoices/customs-invoices.repository.integration-spec.ts',
      '/src/customs-invoices/customs-invoices.repository.ts',
      '/src/customs-invoices/customs-invoices.service.spec.ts',
      '/src/customs-invoices/customs-invoices.service.ts',
      '/src/customs-invoices/dto/customs-invoices.response.dto.ts',
      '/test/customs-invoices.e2e-spec.ts',
      '/test/remote/customs-invoices.remote-spec.ts',
    ]);
    expect(tree.readText('/src/customs-invoices/customs-invoices.controller.ts')).toContain(
      "@Controller('api/processes/:numero/customs-invoices')\nexport class CustomsInvoicesController {",
    );
  });

  it('registers it in AppModule, its config in AppConfig and .env.example, and gives it a layer', () => {
    const appModule = tree.readText('/src/app.module.ts');
    expect(appModule).toContain(
      "import { CustomsInvoicesModule } from './customs-invoices/customs-invoices.module.js';",
    );
    expect(appModule).toMatch(/imports: \[[^\]]*\n {4}CustomsInvoicesModule,\n {2}\]/);
    const appConfig = tree.readText('/src/config/app.config.ts');
    expect(appConfig).toContain('customsInvoices!: CustomsInvoicesConfig;');
    expect(appConfig).toContain('customsInvoices: customsInvoicesConfig,');
    expect(appConfig).toContain('customsInvoices: customsInvoicesConfig.section(variables.customsInvoices),');
    expect(tree.readText('/.env.example')).toMatch(/\nCUSTOMS_INVOICES_MAX_AGE_S=60\n$/);
    expect(tree.readText('/.dependency-cruiser.mjs')).toMatch(
      /\['processes'\],.*\n {2}\['customs-invoices'\],/,
    );
  });

  it('refuses a feature that exists, and a name that is not kebab-case', async () => {
    const existing = repositoryTree();
    existing.create('src/documents/documents.module.ts', '');

    await expect(runner.runSchematic('feature', { name: 'documents' }, existing)).rejects.toThrow(
      'src/documents/ exists already',
    );
    await expect(runner.runSchematic('feature', { name: 'Documents_2' }, repositoryTree())).rejects.toThrow();
  });
});
