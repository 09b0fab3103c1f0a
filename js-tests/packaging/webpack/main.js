// webpack 5 turns the package's `new URL('….wasm', import.meta.url)` into an asset of its own.
import { start } from '../app.js';

start();
