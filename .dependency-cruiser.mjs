import { readdirSync } from 'node:fs';

// The layers of src/, bottom first. A folder imports only folders of lower layers: never one of its
// own layer, never one above. Specs are exempt (a test may assemble what it tests from anywhere);
// what they share lives in src/testing/, which production code never imports.
const LAYERS = [
  ['config', 'domain'], // settings and the closed vocabularies: import nothing of ours
  ['common'], // HTTP plumbing, problem details, validation, clock
  ['lifecycle'], // shutdown (readiness at a signal, the drain) and the hooks run before exit
  ['visibility'], // who may see which customers' processes: the one answer every feature asks
  ['logging', 'tracing'],
  ['database', 'redis', 'metrics'], // infrastructure
  ['operations', 'rate-limit'], // the port to the operations system; request limits
  ['auth'],
  ['processes'],
  ['changes'], // the change feed renders processes' follow-up events
  ['sync', 'webhooks'], // sync records changes; webhooks deliver them
  ['demo', 'legacy-tracking', 'portal'],
  ['health'], // readiness reads every dependency, the demo's first sync included
  ['cli'],
];

// A folder missing from LAYERS would escape every layer rule: refuse to run instead.
const NOT_LAYERS = ['testing', 'queries']; // test kit; committed SQL snapshots
const unlayered = readdirSync('src', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && ![...LAYERS.flat(), ...NOT_LAYERS].includes(entry.name))
  .map((entry) => entry.name);
if (unlayered.length > 0) {
  throw new Error(
    `src/${unlayered.join(', src/')}: give each folder its place in LAYERS (.dependency-cruiser.mjs)`,
  );
}

const PRODUCTION = { path: '^src/', pathNot: ['[.-]spec\\.ts$', '^src/testing/'] };
const folder = (name) => `^src/${name}/`;
// Each feature declares its environment variables beside its code (`src/<feature>/<feature>.config.ts`),
// and src/config/ assembles them: those files belong to the config layer, wherever they sit.
const FEATURE_CONFIG = '^src/[^/]+/[^/]+\\.config\\.ts$';

const layerRules = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1).flat();
  return layer
    .map((name) => ({ name, forbidden: [...above, ...layer.filter((other) => other !== name)] }))
    .filter(({ forbidden }) => forbidden.length > 0)
    .map(({ name, forbidden }) => ({
      name: `layer:${name}`,
      comment: `${name} may import only lower layers (see LAYERS in .dependency-cruiser.mjs)`,
      severity: 'error',
      from: { ...PRODUCTION, path: folder(name) },
      to: { path: forbidden.map(folder), pathNot: FEATURE_CONFIG },
    }));
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...layerRules,
    {
      name: 'feature-config-is-config',
      comment: 'a feature config file is read by src/config/: it imports only the config and domain layers',
      severity: 'error',
      from: { path: FEATURE_CONFIG, pathNot: folder('config') },
      to: { path: '^src/', pathNot: '^src/(config|domain)/' },
    },
    {
      name: 'no-circular',
      comment: 'modules that import each other, however indirectly, cannot be understood or tested apart',
      severity: 'error',
      from: PRODUCTION,
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'fakes, factories and test helpers stay out of the build',
      severity: 'error',
      from: PRODUCTION,
      to: { path: ['^test/', '^src/testing/', '[.-]spec\\.ts$'] },
    },
    {
      name: 'product-knows-no-sandbox',
      comment:
        'the service reaches the operations system only over HTTP: nothing under src/ imports the sandbox (tests may start one)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'sandbox-knows-no-product',
      comment: 'the sandbox is another system: it shares no code with the service',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: ['^src/', '^test/', '^bench/'] },
    },
    {
      name: 'entry-points-stay-on-top',
      comment: 'main.ts, app.module.ts and app.setup.ts wire everything; nothing wires them',
      severity: 'error',
      from: { ...PRODUCTION, path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^portal/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
