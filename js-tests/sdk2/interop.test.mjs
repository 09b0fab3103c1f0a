// Interop with a requester we did not write: examples/sdk2-client runs the official
// @modelcontextprotocol/ext-tasks 0.2.2 (on @modelcontextprotocol/client 2.4) against
// examples/sdk2-server, both copied into a scratch project next to the packed package, over
// Streamable HTTP on 127.0.0.1. On the tasks extension: a task with input, a task cancelled
// while it waits for input, a tool error, a JSON-RPC error; as a 2025-11-25 client of the same
// server: a task, a cancelled task, a tool error. The client checks every outcome it sees and
// exits non-zero on any surprise; this test checks its exit code and transcript.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../helpers/package.mjs';
import { installWithSdk2, listeningUrl, runNode } from './harness.mjs';

let pkg;
before(() => {
  pkg = installWithSdk2('mcp-task-core-interop-');
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-client', 'client.mjs'), path.join(pkg.dir, 'client.mjs'));
});
after(() => pkg?.cleanup());

const run = (file, env) => runNode(pkg.dir, file, env);

test('ext-tasks (the official requester) drives the SDK 2.x server: input, cancel, errors, on 2026-07-28 and 2025-11-25', { timeout: 90_000 }, async () => {
  const server = run('server.mjs', { PORT: '0', STEP_MS: '30' });
  try {
    const url = await listeningUrl(server);
    const client = run('client.mjs', { MCP_URL: url });
    const { code } = await client.exit;
    assert.equal(code, 0, `client failed:\n${client.out}\n--- server ---\n${server.out}`);
    assert.match(client.out, /All checks passed\./);
    const modern = client.out.slice(client.out.indexOf('== Tasks extension'), client.out.indexOf('== The same server'));
    const legacy = client.out.slice(client.out.indexOf('== The same server'));
    for (const line of [
      /server capabilities: extensions=\{"io\.modelcontextprotocol\/tasks":\{\}\} tasks=null/,
      /<- input request \(elicitation\) for task \w+: "Which pace for 2 days in Lisbon\?"/,
      /status: input_required/,
      /<= completed: "2-day packed plan for Lisbon ready"/,
      /-> cancel task \w+\n(?:.*\n)*?\s+<= cancelled/,
      /<= completed \(isError\): "the job failed: disk quota exceeded"/,
      /<= failed: error -32603: Simulated protocol failure data=\{"reason":"backend_unavailable"\}/,
    ]) {
      assert.match(modern, line);
    }
    for (const line of [/server capabilities: tasks=\{"cancel":\{\},"requests":\{"tools":\{"call":\{\}\}\}\}/, /<= completed: "computed forecast after 0\.3 s"/, /<= cancelled/, /<= failed: .*isError/]) {
      assert.match(legacy, line);
    }
  } finally {
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exit;
    assert.ok(code === 0 || signal === 'SIGTERM', `server stopped cleanly (code ${code}, signal ${signal})\n${server.out}`);
  }
});
