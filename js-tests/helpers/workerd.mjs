// Run a Worker in workerd (via Miniflare) that imports this package's `workerd` build.
//
//   import { withWorkerd } from './helpers/workerd.mjs';
//   await withWorkerd({ script: `
//       import { engine_version } from 'mcp-task-core';
//       export default { fetch() { return new Response(engine_version()); } };
//     ` }, async (url) => { const res = await fetch(url); ... });
//
// The script is an ES module Worker (modules: true). The bare specifier 'mcp-task-core' is
// served by an alias module that re-exports the file named by the package's
// `exports["."].workerd` condition, so the exports map itself is under test; likewise
// 'mcp-task-core/receiver' (`exports["./receiver"].workerd`). Each entry the Worker names, and
// everything it imports relatively, is added as modules: *.js as ESModule, *.wasm as
// CompiledWasm (what wrangler does with `import m from './x.wasm'`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_PKG_DIR = path.join(REPO_ROOT, 'pkg');
// miniflare 4.20260426.0 ships workerd 1.20260426.x: dates up to 2026-04-26 are accepted.
export const DEFAULT_COMPATIBILITY_DATE = '2026-04-01';

const IMPORT_RE = /(?:\bimport|\bexport)\s*(?:[\w*{}\s,$]+?\s*from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** Resolve the `workerd` condition of exports[subpath] in pkgDir/package.json to an absolute path. */
export function resolveWorkerdEntry(pkgDir = DEFAULT_PKG_DIR, subpath = '.') {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  let rel = pkg.exports?.[subpath]?.workerd;
  while (rel && typeof rel === 'object') rel = rel.import ?? rel.default;
  if (!rel) throw new Error(`${pkg.name}: no exports["${subpath}"].workerd entry in ${pkgDir}/package.json`);
  return { name: pkg.name, entry: path.resolve(pkgDir, rel) };
}

/** The entry and every module it reaches through relative static imports. */
export function collectModules(entry, modulesRoot) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file)) return;
    if (!fs.existsSync(file)) throw new Error(`workerd module not found: ${file}`);
    const name = path.relative(modulesRoot, file);
    if (file.endsWith('.wasm')) {
      seen.set(file, { type: 'CompiledWasm', path: file, contents: fs.readFileSync(file) });
      return;
    }
    if (!/\.m?js$/.test(file)) throw new Error(`unsupported module type for workerd: ${name}`);
    // workerd resolves a bare specifier from the importing module's folder (a bundler would
    // resolve it through node_modules): a package module in a subfolder reaches the root's
    // 'mcp-task-core/...' alias modules by a relative path instead.
    const up = path.relative(path.dirname(file), modulesRoot).split(path.sep).join('/');
    const text = fs.readFileSync(file, 'utf8');
    const contents = up === '' ? text : text.replace(/(\bfrom\s*)(['"])(mcp-task-core(?:\/[\w-]+)?)\2/g, `$1$2${up}/$3$2`);
    seen.set(file, { type: 'ESModule', path: file, contents });
    for (const m of text.matchAll(IMPORT_RE)) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(entry);
  return [...seen.values()];
}

/** Modules listed once each (two entries share the package's own modules). */
export function uniqueModules(modules) {
  return [...new Map(modules.map((m) => [m.path, m])).values()];
}

/**
 * Start Miniflare on 127.0.0.1 (random port) with `script` as the Worker's main module.
 * @param {object} opts
 * @param {string} opts.script  ES module Worker source; may import 'mcp-task-core'.
 * @param {string} [opts.pkgDir]  built package folder (default <repo>/pkg)
 * @param {string} [opts.compatibilityDate]
 * @param {string[]} [opts.compatibilityFlags]
 * @param {object} [opts.miniflare]  extra Miniflare options (bindings, ...)
 * @returns {Promise<{ url: URL, mf: Miniflare, dispose: () => Promise<void> }>}
 */
export async function startWorkerd({
  script,
  pkgDir = DEFAULT_PKG_DIR,
  compatibilityDate = DEFAULT_COMPATIBILITY_DATE,
  compatibilityFlags = [],
  miniflare = {},
} = {}) {
  if (typeof script !== 'string') throw new TypeError('startWorkerd: opts.script (string) is required');
  const { name, entry } = resolveWorkerdEntry(pkgDir);
  // Module names are paths relative to modulesRoot: the package's own files keep their
  // relative names, the Worker and the bare-name aliases sit beside them.
  const modulesRoot = pkgDir;
  const worker = path.join(modulesRoot, '__test_worker__.mjs');
  // The Worker's own relative imports (e.g. the package's sdk.js importing './storage/storage.js').
  const scriptImports = [...script.matchAll(IMPORT_RE)].flatMap((m) => collectModules(path.resolve(modulesRoot, m[1]), modulesRoot));
  // The bare specifiers the Worker uses: 'mcp-task-core' (the full build) and
  // 'mcp-task-core/receiver' (the receiver-only build, which the adapters import). Only those
  // are added: workerd compiles every .wasm module it is given, used or not.
  const sources = [script, ...scriptImports.map((m) => (typeof m.contents === 'string' ? m.contents : ''))].join('\n');
  const aliases = [];
  const packageModules = [];
  for (const [subpath, file] of [['.', entry], ['./receiver', null]]) {
    const specifier = subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
    if (!new RegExp(`['"/]${specifier}['"]`).test(sources)) continue;
    const target = file ?? resolveWorkerdEntry(pkgDir, subpath).entry;
    const aliasPath = path.join(modulesRoot, specifier);
    const rel = path.relative(path.dirname(aliasPath), target).split(path.sep).join('/');
    aliases.push({ type: 'ESModule', path: aliasPath, contents: `export * from ${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)};\n` });
    packageModules.push(...collectModules(target, modulesRoot));
  }
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    compatibilityDate,
    compatibilityFlags,
    modulesRoot,
    modules: uniqueModules([{ type: 'ESModule', path: worker, contents: script }, ...aliases, ...packageModules, ...scriptImports]),
    ...miniflare,
  });
  let url;
  try {
    url = await mf.ready;
  } catch (err) {
    await mf.dispose().catch(() => {});
    throw err;
  }
  return { url, mf, dispose: () => mf.dispose() };
}

/** Start a Worker, run `fn(url, mf)`, and always dispose of Miniflare. */
export async function withWorkerd(opts, fn) {
  const { url, mf, dispose } = await startWorkerd(opts);
  try {
    return await fn(url, mf);
  } finally {
    await dispose();
  }
}
