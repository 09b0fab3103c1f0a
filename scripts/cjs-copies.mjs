// Writes the CommonJS twins of the package's ES module sources into pkg/, so each piece of
// JS and each type file has one source in pkg-template/:
//   extras.js, node-random.js, engine.js, sdk.js, redis.js, storage.js, runtime.js, recycle.js, server.js, requestor.js, task-client.js -> *.cjs   (esbuild's ESM -> CommonJS
//     transform; a sibling ES module './x.js' is required as its twin './x.cjs')
//   index.d.ts, receiver-only.d.ts, sdk.d.ts, redis.d.ts, storage.d.ts, server.d.ts, requestor.d.ts -> *.d.cts   (same declarations)
//
//   node scripts/cjs-copies.mjs PKG_DIR
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// esbuild comes with the JS test harness (js-tests/node_modules, installed by scripts/setup.sh).
const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js-tests', 'package.json');
const esbuild = createRequire(harness)('esbuild');

const dir = process.argv[2];
const note = (from) => `// Generated from ${from} by scripts/build-pkg.sh: do not edit.\n`;

function toCommonJs(file, target = file.replace(/\.js$/, '.cjs')) {
  const src = path.join(dir, file);
  if (!fs.existsSync(src)) return;
  const { code, warnings } = esbuild.transformSync(fs.readFileSync(src, 'utf8'), {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcefile: file,
    legalComments: 'inline',
  });
  if (warnings.length) throw new Error(`${file}: ${warnings.map((w) => w.text).join('; ')}`);
  // Only the relative requires esbuild wrote: a sibling ES module has its CommonJS twin.
  const twins = code.replace(/require\("(\.\.?\/[^"]+)\.js"\)/g, 'require("$1.cjs")');
  fs.writeFileSync(path.join(dir, target), `'use strict';\n${note(file)}${twins}`);
}

function typesCopy(file) {
  const src = path.join(dir, file);
  if (!fs.existsSync(src)) return;
  fs.writeFileSync(path.join(dir, file.replace(/\.d\.ts$/, '.d.cts')), note(file) + fs.readFileSync(src, 'utf8'));
}

toCommonJs('extras.js');
toCommonJs('node-random.js');
toCommonJs('engine.js');
toCommonJs('storage.js');
toCommonJs('runtime.js');
toCommonJs('recycle.js');
toCommonJs('sdk.js');
toCommonJs('redis.js');
toCommonJs('server.js');
toCommonJs('requestor.js');
toCommonJs('task-client.js');
typesCopy('index.d.ts');
typesCopy('receiver-only.d.ts');
typesCopy('sdk.d.ts');
typesCopy('redis.d.ts');
typesCopy('storage.d.ts');
typesCopy('server.d.ts');
typesCopy('requestor.d.ts');
