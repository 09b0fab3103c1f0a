// Interop with the official Rust SDK: rmcp 3.11 as a 2026-07-28 client (interop/rmcp-client, a
// test-only crate with its own workspace and lockfile: none of it enters the library's
// dependency tree) drives examples/sdk2-server through the tasks extension: a task with input
// answered by tasks/update, a task cancelled while it waits for input, a tool error, a
// JSON-RPC error, a plain tool, an unknown task. scripts/test-all.sh builds the crate first;
// here `cargo build` is a no-op then (it builds it when run alone).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../helpers/package.mjs';
import { installWithSdk2 } from './harness.mjs';

const run = promisify(execFile);
const CRATE = path.join(REPO_ROOT, 'interop', 'rmcp-client');
const BINARY = path.join(CRATE, 'target', 'debug', 'rmcp-client-interop');

let pkg;
before(async () => {
  await run('cargo', ['build', '--locked', '--quiet', '--manifest-path', path.join(CRATE, 'Cargo.toml')], { timeout: 900_000, maxBuffer: 1 << 24 });
  assert.ok(fs.existsSync(BINARY), `${BINARY} built`);
  pkg = installWithSdk2('mcp-task-core-rmcp-');
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
});
after(() => pkg?.cleanup());

test('rmcp 3.11 (the Rust SDK) as a 2026-07-28 client: input, cancel, errors, a plain tool, an unknown task', { timeout: 120_000 }, async () => {
  let serverOut = '';
  const server = spawn(process.execPath, ['server.mjs'], { cwd: pkg.dir, env: { ...process.env, PORT: '0', STEP_MS: '30' }, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (serverOut += d));
  server.stderr.on('data', (d) => (serverOut += d));
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not listen:\n${serverOut}`)), 20_000);
      server.stdout.on('data', () => {
        const m = /^listening on (http:\S+)$/m.exec(serverOut);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      exited.then(() => reject(new Error(`server exited:\n${serverOut}`)));
    });
    let out = '';
    try {
      ({ stdout: out } = await run(BINARY, [], { env: { ...process.env, MCP_URL: url }, timeout: 60_000 }));
    } catch (err) {
      assert.fail(`the rmcp client failed (${err.code}):\n${err.stdout}${err.stderr}\n--- server ---\n${serverOut}`);
    }
    assert.match(out, /All checks passed\./);
    for (const line of [
      /task \w+ created: Working, ttlMs Some\(600000\), pollIntervalMs Some\(200\)/,
      /status: InputRequired/,
      /<- input request \S+: \{"method":"elicitation\/create"/,
      /<= completed: "2-day packed plan for Lisbon ready"/,
      /-> tasks\/cancel \w+\n\s+status: Cancelled/,
      /<= completed \(isError: true\): "the job failed: disk quota exceeded"/,
      /<= failed: \{"code":-32603,/,
      /tools\/call greet: "Hello, Ferris!"/,
      /tasks\/get no-such-task: Mcp error: -32602/,
    ]) {
      assert.match(out, line);
    }
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
});
