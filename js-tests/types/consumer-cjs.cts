// The CommonJS view of the types (index.d.cts through exports["."].types.require),
// checked with `tsc --noEmit` by js-tests/types.test.mjs.
import mcp = require('mcp-task-core');

const engine: mcp.TextTaskEngine = new mcp.TextTaskEngine({ tools: { slow: 'required' } });
const reply: string | null = engine.handle('{"jsonrpc":"2.0","id":1,"method":"ping"}', 'ctx');
const outputs: mcp.TextTaskEngineOutput[] = mcp.drainOutputs(engine);
for (const out of outputs) {
  if (out.kind === 'execute') engine.complete(out.taskId, '{"content":[]}');
}
const code: mcp.TaskEngineErrorCode = 'invalid_cursor';
void reply;
void code;
void mcp.init();
// @ts-expect-error: the message is JSON text
engine.handle(1);
engine.free();
