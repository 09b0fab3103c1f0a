// esbuild options: loader: { '.wasm': 'file' }
import wasmUrl from 'mcp-task-core/mcp_task_core_bg.wasm';
import { init } from 'mcp-task-core';

await init(new URL(wasmUrl, import.meta.url));

// The rest is the test page (README.md shows the lines above). esbuild leaves
// `new URL('….wasm', import.meta.url)` alone, so the .wasm comes through the package's
// `mcp-task-core/mcp_task_core_bg.wasm` export: the `file` loader copies it to dist/ and
// gives its URL.
import { start } from '../app.js';

start(wasmUrl);
