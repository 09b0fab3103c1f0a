// The package's one table: every subpath `mcp-task-core` exports, the file behind each
// condition, the wasm entry points (generated here, one per build and platform), the CommonJS
// twins and the .d.cts copies. scripts/build-pkg.sh runs it on pkg/ after copying pkg-template/:
//   - writes pkg/entries/*: each wasm entry point, bundled by esbuild with the package modules it
//     imports into one file (every module loaded at start-up costs a resolve, a read and a parse;
//     in a browser, a request). The wasm-bindgen glue stays a module of its own (it finds the
//     .wasm relative to itself), so each build has one wasm instance per module system;
//   - writes core/protocol.js, the protocol's constants as the engine states them;
//   - writes the CommonJS twin (x.cjs) of each module that has one, and x.d.cts of its types;
//   - writes `main`, `browser`, `types` and `exports` into pkg/package.json.
//
//   node scripts/package-table.mjs PKG_DIR
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The three wasm builds: the glue's file name and its folder per platform (wasm-bindgen
 * targets, made by scripts/build-pkg.sh), and which halves of the API each holds.
 */
export const BUILDS = {
  main: { glue: 'mcp_task_core', folders: { 'node-esm': 'node-esm', 'node-cjs': 'node-cjs', web: 'web' }, engine: true, requestor: true },
  // reinstantiable: its glue makes fresh instances (scripts/reinstantiable-glue.mjs), which the
  // adapters recycle their engine into once a burst has expired.
  receiver: { glue: 'mcp_task_core_receiver', folders: { 'node-esm': 'receiver-node-esm', 'node-cjs': 'receiver-node-cjs', web: 'receiver-web' }, engine: true, requestor: false, reinstantiable: true },
  requestor: { glue: 'mcp_task_core_requestor', folders: { 'node-esm': 'requestor-node-esm', web: 'requestor-web' }, engine: false, requestor: true },
};

/**
 * The wasm entry points: subpath, build, types file (in types/) and the glue's names exported
 * as they are (`*`: all of them). Each is generated for Node ESM, Node CommonJS (when the build
 * has a CommonJS glue), browsers and workerd.
 */
export const ENTRIES = [
  { subpath: '.', name: 'index', build: 'main', types: 'index', glueExports: '*' },
  { subpath: './receiver', name: 'receiver', build: 'receiver', types: 'receiver-only', glueExports: ['TextTaskEngine', 'setRandomSource'] },
  { subpath: './requestor', name: 'requestor', build: 'requestor', types: 'requestor-only', glueExports: ['TextTaskRequestor', 'shouldAugment'] },
];

/**
 * The package modules with a subpath of their own: file, types file (in types/), whether it
 * has a CommonJS twin, and the extra conditions that pick the ES module first.
 */
export const MODULES = [
  { subpath: './sdk', file: 'adapters/sdk-v1.js', types: 'sdk', cjs: true },
  { subpath: './server', file: 'adapters/sdk-v2.js', types: 'server', cjs: true },
  { subpath: './durable-object', file: 'adapters/durable-object.js', types: 'durable-object', cjs: false, first: ['workerd'] },
  { subpath: './storage', file: 'storage/storage.js', types: 'storage', cjs: true },
  { subpath: './redis', file: 'storage/redis.js', types: 'redis', cjs: true },
  { subpath: './console', file: 'console/console.js', types: 'console', cjs: false },
];

/** Modules without a subpath that a module with a CommonJS twin requires: they need twins too. */
export const INTERNAL_CJS = ['runtime/recycle.js', 'adapters/sdk-v2-fast-path.js', 'core/protocol.js', 'core/errors.js', 'core/bindings.js', 'core/engine.js', 'core/node-random.js', 'runtime/runtime.js', 'runtime/telemetry.js', 'runtime/companion.js', 'client/requestor.js', 'client/task-client.js'];

/** Types files the entries and modules re-export from, with a .d.cts copy. */
const INTERNAL_TYPES = ['requestor'];

/** The generated file of an entry on a platform. */
export function entryFile(entry, platform) {
  const ext = { 'node-esm': 'node.mjs', 'node-cjs': 'node.cjs', browser: 'browser.js', workerd: 'workerd.js' }[platform];
  return `entries/${entry.name}.${ext}`;
}

/** The platforms an entry is generated for. */
export function platformsOf(entry) {
  return ['node-esm', 'node-cjs', 'browser', 'workerd'].filter((p) => p !== 'node-cjs' || BUILDS[entry.build].folders['node-cjs']);
}

/** The source of one entry point (bundled before it is written). */
function entrySource(entry, platform) {
  const build = BUILDS[entry.build];
  const folder = build.folders[platform === 'node-cjs' ? 'node-cjs' : platform === 'node-esm' ? 'node-esm' : 'web'];
  const glue = `../${folder}/${build.glue}.js`;
  const lines = [];
  const classes = [build.engine && 'TextTaskEngine', build.requestor && 'TextTaskRequestor'].filter(Boolean);
  lines.push(`import * as raw from '${glue}';`);
  lines.push(`import { guardFreed${platform === 'browser' ? ', wasmLoader' : ''}${build.reinstantiable ? ', freshInstances' : ''} } from '../core/bindings.js';`);
  if (build.engine) lines.push(`import { ${platform === 'browser' ? 'browserEngine' : 'objectTaskEngine'} } from '../core/engine.js';`);
  if (build.engine) lines.push(`export { handleObject, drainOutputs } from '../core/engine.js';`);
  if (build.requestor) lines.push(`import { ${platform === 'browser' ? 'browserRequestor' : 'requestorClasses'} } from '../client/requestor.js';`);
  if (platform === 'workerd') {
    // workerd refuses `new WebAssembly.Module(bytes)`: the .wasm is imported as a module
    // (wrangler and Miniflare treat *.wasm imports as CompiledWasm) and instantiated here.
    lines.push(`import wasmModule from '../${folder}/${build.glue}_bg.wasm';`, `raw.initSync({ module: wasmModule });`);
  }
  if (platform.startsWith('node') && build.engine) {
    lines.push(`import { fillRandom } from '../core/node-random.js';`, `raw.setRandomSource(fillRandom);`);
  }
  for (const cls of classes) lines.push(`guardFreed(raw.${cls});`);
  if (entry.glueExports === '*') lines.push(`export * from '${glue}';`);
  // In a browser the wrappers below are the glue's classes.
  else if (platform !== 'browser') lines.push(`export { ${entry.glueExports.join(', ')} } from '${glue}';`);
  if (platform === 'browser') {
    // Used before `await init()`, the bindings would fail with "Cannot read properties of
    // undefined": these wrappers say what to do instead (local exports win over `export *`).
    lines.push(`const loader = wasmLoader(raw.default);`);
    if (build.engine) lines.push(`export const { TextTaskEngine, TaskEngine, setRandomSource } = browserEngine(raw, loader);`);
    if (build.requestor) lines.push(`export const { TextTaskRequestor, shouldAugment, TaskRequestor, TaskClient } = browserRequestor(raw, loader);`);
    lines.push(`/** Loads and instantiates the wasm once; later calls return the same promise. */`, `export const init = loader.init;`);
  } else {
    if (build.engine) lines.push(`/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */`, `export const TaskEngine = objectTaskEngine(raw.TextTaskEngine);`);
    if (build.requestor) lines.push(`export const { TaskRequestor, TaskClient } = requestorClasses(raw.TextTaskRequestor);`);
    lines.push(`/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */`, `export async function init(_input) {}`);
  }
  if (build.reinstantiable) {
    // A fresh instance of the wasm: its own TextTaskEngine class and linear memory (the compiled
    // module and the random source are shared). A wasm memory never shrinks: the adapters move
    // their tasks into a fresh instance once a burst has expired (runtime/recycle.js).
    const fresh = platform === 'browser' ? `() => { loader.assertLoaded('freshInstance()'); return raw.freshBindings(); }` : 'raw.freshBindings';
    lines.push(`export const freshInstance = freshInstances(${fresh});`);
  }
  return { source: lines.join('\n') + '\n', glue: `../${folder}/${build.glue}.js` };
}

/** The `exports` field, with `main`, `browser` and `types`. */
export function packageExports() {
  const exports = {};
  for (const entry of ENTRIES) {
    const file = (p) => `./${entryFile(entry, p)}`;
    const cjs = platformsOf(entry).includes('node-cjs');
    exports[entry.subpath] = {
      types: cjs ? { require: `./types/${entry.types}.d.cts`, default: `./types/${entry.types}.d.ts` } : `./types/${entry.types}.d.ts`,
      workerd: file('workerd'),
      worker: file('browser'),
      browser: file('browser'),
      node: cjs ? { import: file('node-esm'), require: file('node-cjs') } : file('node-esm'),
      import: file('browser'),
      ...(cjs ? { require: file('node-cjs') } : {}),
      default: file('browser'),
    };
  }
  for (const m of MODULES) {
    const esm = `./${m.file}`;
    const cjs = esm.replace(/\.js$/, '.cjs');
    exports[m.subpath] = {
      types: m.cjs ? { require: `./types/${m.types}.d.cts`, default: `./types/${m.types}.d.ts` } : `./types/${m.types}.d.ts`,
      ...Object.fromEntries((m.first ?? []).map((c) => [c, esm])),
      ...(m.cjs ? { node: { import: esm, require: cjs }, import: esm, require: cjs } : { import: esm }),
      default: esm,
    };
  }
  for (const build of Object.values(BUILDS)) exports[`./${build.glue}_bg.wasm`] = `./${build.folders.web}/${build.glue}_bg.wasm`;
  exports['./package.json'] = './package.json';
  const root = ENTRIES[0];
  return { main: `./${entryFile(root, 'node-cjs')}`, browser: `./${entryFile(root, 'browser')}`, types: `./types/${root.types}.d.ts`, exports };
}

const note = (from) => `// Generated from ${from} by scripts/build-pkg.sh: do not edit.\n`;

function main(dir) {
  // esbuild comes with the JS test harness (js-tests/node_modules, installed by scripts/setup.sh).
  const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js-tests', 'package.json');
  const esbuild = createRequire(harness)('esbuild');

  // core/protocol.js: the protocol's names and numbers as the engine states them, so no module
  // declares an error code, a version or a _meta key of its own.
  const { TextTaskRequestor } = createRequire(import.meta.url)(path.join(dir, BUILDS.main.folders['node-cjs'], `${BUILDS.main.glue}.js`));
  fs.writeFileSync(
    path.join(dir, 'core', 'protocol.js'),
    `${note('TextTaskRequestor.protocolJson() (src/protocol/constants.rs)')}/** The protocol's error codes, versions, _meta keys and 2025-11-25 policy listings. */\nexport const PROTOCOL = ${JSON.stringify(JSON.parse(TextTaskRequestor.protocolJson()), null, 2)};\n`,
  );

  // CommonJS twins: esbuild's ESM -> CommonJS transform; a sibling ES module './x.js' is
  // required as its twin './x.cjs'.
  for (const file of [...MODULES.filter((m) => m.cjs).map((m) => m.file), ...INTERNAL_CJS]) {
    const { code, warnings } = esbuild.transformSync(fs.readFileSync(path.join(dir, file), 'utf8'), {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcefile: file,
      legalComments: 'inline',
    });
    if (warnings.length) throw new Error(`${file}: ${warnings.map((w) => w.text).join('; ')}`);
    const twins = code.replace(/require\("(\.\.?\/[^"]+)\.js"\)/g, 'require("$1.cjs")');
    fs.writeFileSync(path.join(dir, file.replace(/\.js$/, '.cjs')), `'use strict';\n${note(`pkg-template/${file}`)}${twins}`);
  }
  const typed = [...ENTRIES.filter((e) => platformsOf(e).includes('node-cjs')).map((e) => e.types), ...MODULES.filter((m) => m.cjs).map((m) => m.types), ...INTERNAL_TYPES];
  for (const types of new Set(typed)) {
    const src = path.join(dir, 'types', `${types}.d.ts`);
    fs.writeFileSync(src.replace(/\.d\.ts$/, '.d.cts'), note(`pkg-template/types/${types}.d.ts`) + fs.readFileSync(src, 'utf8'));
  }

  fs.mkdirSync(path.join(dir, 'entries'), { recursive: true });
  for (const entry of ENTRIES) {
    for (const platform of platformsOf(entry)) {
      const file = entryFile(entry, platform);
      const { source, glue } = entrySource(entry, platform);
      const format = platform === 'node-cjs' ? 'cjs' : 'esm';
      const node = platform.startsWith('node');
      const result = esbuild.buildSync({
        stdin: { contents: source, resolveDir: path.join(dir, 'entries'), sourcefile: path.basename(file), loader: 'js' },
        bundle: true,
        write: false,
        format,
        platform: node ? 'node' : 'neutral',
        target: node ? 'node20' : 'es2022',
        external: [glue, '*.wasm', 'node:*'],
        legalComments: 'inline',
        logLevel: 'silent',
      });
      if (result.warnings.length) throw new Error(`${file}: ${result.warnings.map((w) => w.text).join('; ')}`);
      const header = `${format === 'cjs' ? "'use strict';\n" : ''}// Generated from scripts/package-table.mjs and the package modules it imports by scripts/build-pkg.sh: do not edit.\n`;
      fs.writeFileSync(path.join(dir, file), header + result.outputFiles[0].text.replace(/^"use strict";\n/, ''));
    }
  }

  const pkgFile = path.join(dir, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  const { name, version, description, license, repository, homepage, bugs, type, engines, ...rest } = pkg;
  const fields = packageExports();
  fs.writeFileSync(pkgFile, JSON.stringify({ name, version, description, license, repository, homepage, bugs, type, engines, ...fields, ...rest }, null, 2) + '\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(path.resolve(process.argv[2]));
