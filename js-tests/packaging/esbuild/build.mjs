// esbuild options: an ES module bundle for browsers in dist/, with the .wasm copied beside it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export default {
  entryPoints: [path.join(here, 'main.js')],
  outdir: path.join(here, 'dist'),
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  loader: { '.wasm': 'file' },
  logLevel: 'warning',
};
