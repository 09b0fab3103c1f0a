// Types for every entry point of the package. The wasm-bindgen surface is the same for
// all targets; the Node typings are used because they carry no DOM types.
export * from './node-esm/mcp_task_core.js';

/**
 * Makes the wasm module ready. Required once (await it) in browsers and other `web` builds;
 * resolves immediately on Node and workerd, where the module is instantiated on import.
 * Accepts what the wasm-bindgen `web` init accepts: a URL or path, a `Response`,
 * the module bytes, or a compiled `WebAssembly.Module`.
 */
export function init(input?: unknown): Promise<void>;
