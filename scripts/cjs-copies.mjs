// Writes the CommonJS twins of the package's ES module sources into pkg/, so each piece of
// JS and each type file has one source in pkg-template/:
//   extras.js, sdk.js, redis.js, storage.js, server.js -> *.cjs   (imports -> require, './x.js' -> './x.cjs', exports -> module.exports)
//   index.d.ts, sdk.d.ts, redis.d.ts, storage.d.ts, server.d.ts -> *.d.cts   (same declarations)
//   node-cjs/snippets/**/*.js rewritten in place as CommonJS (wasm-bindgen emits the inline
//   JS snippets as ES modules even for --target nodejs, which `require`s them)
// The ES sources must keep to plain forms: `import { a, b } from 'x';` lines,
// `export function name(` declarations and one final `export { a, b };` list.
//
//   node scripts/cjs-copies.mjs PKG_DIR
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const note = (from) => `// Generated from ${from} by scripts/build-pkg.sh: do not edit.\n`;

function toCommonJs(file, target = file.replace(/\.js$/, '.cjs')) {
  const src = path.join(dir, file);
  if (!fs.existsSync(src)) return;
  let text = fs.readFileSync(src, 'utf8');
  const exported = [];
  // A relative import of a sibling ES module needs its CommonJS twin: './x.js' -> './x.cjs'.
  text = text.replace(/^import \{([^}]+)\} from '([^']+)';$/gm, (_, names, from) => `const {${names}} = require('${from.replace(/^(\.\.?\/.*)\.js$/, '$1.cjs')}');`);
  text = text.replace(/^export function (\w+)\(/gm, (_, name) => {
    exported.push(name);
    return `function ${name}(`;
  });
  text = text.replace(/^export \{([^}]+)\};\s*$/gm, (_, names) => {
    exported.push(...names.split(',').map((n) => n.trim()).filter(Boolean));
    return '';
  });
  if (/^\s*(import|export)\b/m.test(text)) throw new Error(`${file}: an import or export form this script does not convert`);
  const result = `'use strict';\n${note(file)}${text.trimEnd()}\n\nmodule.exports = { ${exported.join(', ')} };\n`;
  fs.writeFileSync(path.join(dir, target), result);
}

function typesCopy(file) {
  const src = path.join(dir, file);
  if (!fs.existsSync(src)) return;
  fs.writeFileSync(path.join(dir, file.replace(/\.d\.ts$/, '.d.cts')), note(file) + fs.readFileSync(src, 'utf8'));
}

toCommonJs('extras.js');
const snippets = path.join(dir, 'node-cjs', 'snippets');
if (fs.existsSync(snippets)) {
  for (const file of fs.readdirSync(snippets, { recursive: true })) {
    if (String(file).endsWith('.js')) {
      const rel = path.join('node-cjs', 'snippets', String(file));
      toCommonJs(rel, rel);
    }
  }
}
toCommonJs('storage.js');
toCommonJs('sdk.js');
toCommonJs('redis.js');
toCommonJs('server.js');
typesCopy('index.d.ts');
typesCopy('sdk.d.ts');
typesCopy('redis.d.ts');
typesCopy('storage.d.ts');
typesCopy('server.d.ts');
