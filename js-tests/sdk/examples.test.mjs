// examples/sdk-server + examples/sdk-client (the main demo, scripts/demo-sdk.sh) run as a user
// would: both copied into a scratch project where the packed package is installed next to the
// SDK; the server on a free port, the client against it. The client checks every lifecycle it
// prints and exits non-zero on any surprise.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, installPackage } from '../helpers/package.mjs';

let pkg;
before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-sdk-demo-' });
  const nm = path.join(pkg.dir, 'node_modules');
  fs.mkdirSync(path.join(nm, '@modelcontextprotocol'));
  fs.symlinkSync(path.join(REPO_ROOT, 'js-tests', 'node_modules', '@modelcontextprotocol', 'sdk'), path.join(nm, '@modelcontextprotocol', 'sdk'), 'dir');
  fs.symlinkSync(path.join(REPO_ROOT, 'js-tests', 'node_modules', 'zod'), path.join(nm, 'zod'), 'dir');
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk-client', 'client.mjs'), path.join(pkg.dir, 'client.mjs'));
});
after(() => pkg?.cleanup());

test('the SDK demo: server + client over Streamable HTTP, all checks pass', { timeout: 60_000 }, async () => {
  const env = { ...process.env, PORT: '0', STEP_MS: '30' };
  const server = spawn(process.execPath, ['server.mjs'], { cwd: pkg.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let serverOut = '';
  server.stdout.on('data', (d) => (serverOut += d));
  server.stderr.on('data', (d) => (serverOut += d));
  const serverExit = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not listen:\n${serverOut}`)), 20_000);
      const look = () => {
        const m = /^listening on (http:\S+)$/m.exec(serverOut);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      server.stdout.on('data', look);
      serverExit.then(() => reject(new Error(`server exited:\n${serverOut}`)));
    });
    const client = spawn(process.execPath, ['client.mjs'], { cwd: pkg.dir, env: { ...env, MCP_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    client.stdout.on('data', (d) => (out += d));
    client.stderr.on('data', (d) => (out += d));
    const { code } = await new Promise((resolve) => client.on('exit', (c, s) => resolve({ code: c, signal: s })));
    assert.equal(code, 0, `client failed:\n${out}\n--- server ---\n${serverOut}`);
    assert.match(out, /All checks passed\./);
    for (const line of [
      /status: input_required/,
      /<- elicitation\/create for task \w+: "Booking at Chez Wasm/,
      /tasks\/result \w+: JSON-RPC error -32010: Payment of 42 declined data=\{"reason":"insufficient_funds","retryable":false\}/,
      /tasks\/result \w+: result \(isError\): "\/etc\/demo.yaml: no such file"/,
      /tasks\/cancel \w+: cancelled/,
    ]) {
      assert.match(out, line);
    }
  } finally {
    server.kill('SIGTERM');
    const { code, signal } = await serverExit;
    assert.ok(code === 0 || signal === 'SIGTERM', `server stopped cleanly (code ${code}, signal ${signal})\n${serverOut}`);
  }
});
