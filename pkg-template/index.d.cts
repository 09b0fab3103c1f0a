// Types for the CommonJS entry (index.node.cjs). Same surface as index.d.ts.
export * from './node-cjs/mcp_task_core.js';

/** Resolves at once: on Node the module is ready on require. Kept for a uniform API. */
export function init(input?: unknown): Promise<void>;
