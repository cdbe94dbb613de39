// `npm run check` (CI), `npm run lint` and `npm run typecheck`: the type check, ESLint, the layer
// rules and the schema check. Every check selected runs and reports, whichever fails first (one
// failing does not hide the others' findings); the exit code is non-zero if any failed.
//
// The type check and ESLint's typed rules share one TypeScript program per project: building and
// checking a program is most of either's time, so together they cost little more than one. The
// npm scripts give node a 128 MB young generation (`--max-semi-space-size=128`): the programs'
// short-lived objects then die young instead of being promoted, 13% less CPU than the default.
//
//   node scripts/check-code.mjs [types] [eslint] [layers] [schema]   (none named: all four)
//     --project <tsconfig>   only these projects (repeatable; default: every one below)
//     --file <path>          ESLint only these files or folders (repeatable; default: the tree)
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ESLint } from 'eslint';
import ts from 'typescript';

// A file several programs hold is linted with the first: the sandbox's sources with the sandbox's
// settings (the service's tests import them), the portal's with the portal's.
const PROJECTS = [
  'sandbox/tsconfig.json',
  'tsconfig.json',
  'portal/tsconfig.json',
  'portal/test/tsconfig.json',
  'examples/tsconfig.json',
];
const TYPESCRIPT_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    project: { type: 'string', multiple: true, default: PROJECTS },
    file: { type: 'string', multiple: true, default: ['.'] },
  },
});

const CHECKS = { types: checkTypes, eslint: runEslint, layers: checkLayers, schema: checkSchema };
const selected = positionals.length > 0 ? positionals : Object.keys(CHECKS);
const unknown = selected.filter((name) => !(name in CHECKS));
if (unknown.length > 0) {
  console.error(`check-code: unknown check ${unknown.join(', ')} (known: ${Object.keys(CHECKS).join(', ')})`);
  process.exit(2);
}

let programs;
/** The projects' programs, built on first use and shared by the checks that need them. */
function typescriptPrograms() {
  programs ??= options.project.map(createProgram);
  return programs;
}

function createProgram(configPath) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  };
  const config = ts.getParsedCommandLineOfConfigFile(resolve(configPath), {}, host);
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: config.errors,
  });
}

/** What `tsc --noEmit -p <project>` reports, for each project, printed as tsc prints it. */
function checkTypes() {
  const diagnostics = typescriptPrograms().flatMap((program) => ts.getPreEmitDiagnostics(program));
  if (diagnostics.length === 0) return true;
  const host = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => ts.sys.newLine,
  };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  console.error(`types: ${diagnostics.length} error(s)`);
  return false;
}

/** ESLint as `eslint.config.js` says, its typed rules answered by the programs built above. */
async function runEslint() {
  const eslint = new ESLint({
    overrideConfig: [
      {
        files: TYPESCRIPT_FILES,
        languageOptions: { parserOptions: { programs: typescriptPrograms(), projectService: false } },
      },
    ],
  });
  const results = await eslint.lintFiles(options.file);
  const report = await (await eslint.loadFormatter('stylish')).format(results);
  if (report !== '') console.log(report);
  return results.every((result) => result.errorCount === 0 && result.fatalErrorCount === 0);
}

function checkLayers() {
  return runNode([
    'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
    'src',
    'test',
    'sandbox/src',
    '--config',
    '.dependency-cruiser.mjs',
    '--output-type',
    'err-long',
  ]);
}

function checkSchema() {
  return runNode(['scripts/check-schema.mjs']);
}

function runNode(args) {
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status === 0;
}

const failed = [];
for (const name of selected) {
  console.log(`check: ${name}`);
  if (!(await CHECKS[name]())) failed.push(name);
}
if (failed.length > 0) {
  console.error(`check: ${failed.join(', ')} failed`);
  process.exit(1);
}
