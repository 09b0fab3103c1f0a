// Vite resolves the package's `new URL('….wasm', import.meta.url)` and emits the .wasm itself.
import { start } from '../app.js';

start();
