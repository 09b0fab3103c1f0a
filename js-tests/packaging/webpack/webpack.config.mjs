// A production build to dist/; index.html is served beside it (no HTML plugin needed).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export default {
  mode: 'production',
  target: 'web',
  context: here,
  entry: './main.js',
  output: { path: path.join(here, 'dist'), filename: 'main.js', clean: true },
  performance: { hints: false },
};
