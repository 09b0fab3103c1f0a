// Folds each wasm-bindgen glue module's inline JS snippets (files under its snippets/ folder)
// into the glue itself and removes snippets/: three fewer modules to resolve, read and parse at
// start-up, and in a browser three fewer requests before the first call.
//
//   node scripts/bundle-glue.mjs PKG_DIR     (run by scripts/build-pkg.sh before package-table.mjs)
//
// The CommonJS glue (--target nodejs) names its snippets in String.raw templates, which esbuild
// does not follow: they are made plain strings first. The snippets are ES modules either way.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILDS } from './package-table.mjs';
import { reinstantiable } from './reinstantiable-glue.mjs';

// esbuild comes with the JS test harness (js-tests/node_modules, installed by scripts/setup.sh).
const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js-tests', 'package.json');
const esbuild = createRequire(harness)('esbuild');

const dir = path.resolve(process.argv[2]);
// The glue folders of the builds the package table marks reinstantiable.
const REINSTANTIABLE = new Set(Object.values(BUILDS).filter((b) => b.reinstantiable).flatMap((b) => Object.values(b.folders)));
let folded = 0;
for (const glueDir of fs.readdirSync(dir)) {
  const snippets = path.join(dir, glueDir, 'snippets');
  if (!fs.existsSync(snippets)) continue;
  const glues = fs.readdirSync(path.join(dir, glueDir)).filter((f) => f.endsWith('.js'));
  if (glues.length !== 1) throw new Error(`${glueDir}: expected one glue .js file, found ${glues.join(', ') || 'none'}`);
  const glue = path.join(dir, glueDir, glues[0]);
  const marker = path.join(dir, glueDir, 'package.json');
  const commonJs = fs.existsSync(marker) && JSON.parse(fs.readFileSync(marker, 'utf8')).type === 'commonjs';
  const text = fs.readFileSync(glue, 'utf8').replace(/require\(String\.raw`(\.\/snippets\/[^`]+)`\)/g, 'require("$1")');
  const node = glueDir.includes('node');
  const result = esbuild.buildSync({
    stdin: { contents: text, resolveDir: path.dirname(glue), sourcefile: glues[0], loader: 'js' },
    absWorkingDir: dir,
    bundle: true,
    write: false,
    format: commonJs ? 'cjs' : 'esm',
    platform: node ? 'node' : 'neutral',
    target: node ? 'node20' : 'es2022',
    external: ['node:*', '*.wasm'],
    legalComments: 'inline',
    logLevel: 'silent',
  });
  if (result.warnings.length) throw new Error(`${glueDir}: ${result.warnings.map((w) => w.text).join('; ')}`);
  let out = result.outputFiles[0].text;
  if (/(?<![\w$])require\(\s*["'`]\.|from\s*["']\.\/snippets/.test(out)) throw new Error(`${glueDir}/${glues[0]}: a snippet was left unbundled`);
  // The receiver's glue can make fresh instances (scripts/reinstantiable-glue.mjs).
  if (REINSTANTIABLE.has(glueDir)) out = reinstantiable(out, commonJs ? 'cjs-node' : node ? 'esm-node' : 'web', `${glueDir}/${glues[0]}`);
  fs.writeFileSync(glue, `// wasm-bindgen's glue with its inline JS snippets, bundled by scripts/build-pkg.sh: do not edit.\n${out}`);
  fs.rmSync(snippets, { recursive: true });
  folded++;
}
if (folded === 0) throw new Error(`no wasm-bindgen glue with snippets under ${dir}`);
