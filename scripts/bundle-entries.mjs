// Puts each main entry point of the package, with the package modules it imports, in one
// file: every module Node or a browser loads at start-up costs a resolve, a read and a parse
// (in a browser, a request), and the entry imports five. The wasm-bindgen glue stays a module
// of its own (it finds the .wasm relative to itself), and so the wasm instance stays one.
//
//   node scripts/bundle-entries.mjs PKG_DIR     (run by scripts/build-pkg.sh after cjs-copies.mjs)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// esbuild comes with the JS test harness (js-tests/node_modules, installed by scripts/setup.sh).
const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js-tests', 'package.json');
const esbuild = createRequire(harness)('esbuild');

const dir = process.argv[2];

const ENTRIES = [
  { file: 'index.node.mjs', format: 'esm', platform: 'node', glue: './node-esm/mcp_task_core.js' },
  { file: 'index.node.cjs', format: 'cjs', platform: 'node', glue: './node-cjs/mcp_task_core.js' },
  { file: 'index.browser.js', format: 'esm', platform: 'neutral', glue: './web/mcp_task_core.js' },
  { file: 'index.workerd.js', format: 'esm', platform: 'neutral', glue: './web/mcp_task_core.js' },
  { file: 'requestor-only.node.mjs', format: 'esm', platform: 'node', glue: './requestor-node-esm/mcp_task_core_requestor.js' },
  { file: 'requestor-only.browser.js', format: 'esm', platform: 'neutral', glue: './requestor-web/mcp_task_core_requestor.js' },
  { file: 'requestor-only.workerd.js', format: 'esm', platform: 'neutral', glue: './requestor-web/mcp_task_core_requestor.js' },
  { file: 'receiver-only.node.mjs', format: 'esm', platform: 'node', glue: './receiver-node-esm/mcp_task_core_receiver.js' },
  { file: 'receiver-only.node.cjs', format: 'cjs', platform: 'node', glue: './receiver-node-cjs/mcp_task_core_receiver.js' },
  { file: 'receiver-only.browser.js', format: 'esm', platform: 'neutral', glue: './receiver-web/mcp_task_core_receiver.js' },
  { file: 'receiver-only.workerd.js', format: 'esm', platform: 'neutral', glue: './receiver-web/mcp_task_core_receiver.js' },
];

for (const { file, format, platform, glue } of ENTRIES) {
  const entry = path.join(dir, file);
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format,
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    external: [glue, '*.wasm', 'node:*'],
    legalComments: 'inline',
    logLevel: 'silent',
  });
  if (result.warnings.length) throw new Error(`${file}: ${result.warnings.map((w) => w.text).join('; ')}`);
  const header = `${format === 'cjs' ? "'use strict';\n" : ''}// Generated from pkg-template/${file} and the package modules it imports by scripts/build-pkg.sh: do not edit.\n`;
  fs.writeFileSync(entry, header + result.outputFiles[0].text.replace(/^"use strict";\n/, ''));
}
