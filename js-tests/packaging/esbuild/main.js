// esbuild leaves `new URL('….wasm', import.meta.url)` alone, so the .wasm is imported through
// the package's `mcp-task-core/mcp_task_core_bg.wasm` export (the `file` loader copies it to
// dist/ and gives its URL) and handed to init().
import wasmUrl from 'mcp-task-core/mcp_task_core_bg.wasm';
import { start } from '../app.js';

start(wasmUrl);
