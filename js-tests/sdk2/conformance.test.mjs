// The official conformance suite, @modelcontextprotocol/conformance 0.2.0-alpha.12 (pinned in
// js-tests/package.json; it needs Node >= 22, so it runs on the npm `node@22` binary installed
// in js-tests/node_modules), runs every `tasks-*` server scenario it has against
// examples/sdk2-server (the SDK 2.x server whose task runtime is mcp-task-core/server), run as a
// user would: copied into a scratch project next to the packed package.
//
// Every check must pass; the only check allowed not to is one the suite itself skips.
// A second test shows the harness reads failures: a bare SDK 2.4 server (no task runtime)
// fails the capability scenario.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR, REPO_ROOT } from '../helpers/package.mjs';
import { installWithSdk2 } from './harness.mjs';

const run = promisify(execFile);
const NODE22 = path.join(JS_TESTS_DIR, 'node_modules', 'node', 'bin', 'node');
const CLI = path.join(JS_TESTS_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const VERSION = JSON.parse(fs.readFileSync(path.join(JS_TESTS_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'), 'utf8')).version;

let pkg;
let server;
let url;
let serverLog = '';
let outDir;

/** Starts `node server.mjs` in `dir`; resolves with its URL once it listens. */
function startServer(dir, env) {
  const child = spawn(process.execPath, ['server.mjs'], { cwd: dir, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (serverLog += d));
  child.stderr.on('data', (d) => (serverLog += d));
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not listen:\n${serverLog}`)), 20_000);
    child.stdout.on('data', () => {
      const m = /^listening on (http:\S+)$/m.exec(serverLog);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${serverLog}`)));
  });
  return { child, listening };
}

before(async () => {
  assert.equal(VERSION, '0.2.0-alpha.12', 'the pinned conformance suite');
  const { stdout } = await run(NODE22, ['--version']);
  assert.match(stdout, /^v22\./, 'the suite runs on Node 22 (npm node@22)');
  pkg = installWithSdk2('mcp-task-core-conformance-');
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
  server = startServer(pkg.dir, { STEP_MS: '20', TIME_SCALE: '0.25' });
  url = await server.listening;
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-core-conformance-out-'));
});

after(() => {
  server?.child.kill('SIGTERM');
  pkg?.cleanup();
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

/** The server scenarios of the pinned suite whose names start with `tasks-`. */
async function taskScenarios() {
  const { stdout } = await run(NODE22, [CLI, 'list', '--server'], { cwd: outDir });
  return [...stdout.matchAll(/^\s+- (tasks-[\w-]+)\b/gm)].map((m) => m[1]);
}

/** Runs one scenario against `target`; returns its checks (from the suite's checks.json). */
async function runScenario(scenario, target) {
  const dir = path.join(outDir, `${scenario}-${Math.random().toString(36).slice(2)}`);
  let output = '';
  try {
    ({ stdout: output } = await run(NODE22, [CLI, 'server', '--url', target, '--scenario', scenario, '-o', dir], { cwd: outDir, timeout: 120_000 }));
  } catch (err) {
    output = `${err.stdout ?? ''}${err.stderr ?? ''}`; // non-zero exit on failed checks: read the results anyway
  }
  const [runDir] = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  assert.ok(runDir, `${scenario}: no results written\n${output}`);
  return JSON.parse(fs.readFileSync(path.join(dir, runDir, 'checks.json'), 'utf8'));
}

async function runAll(scenarios, target, concurrency = 3) {
  const results = new Map();
  const queue = [...scenarios];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) results.set(s, await runScenario(s, target));
    }),
  );
  return results;
}

test('conformance 0.2.0-alpha.12: every tasks-* scenario passes against examples/sdk2-server', { timeout: 240_000 }, async (t) => {
  const scenarios = await taskScenarios();
  assert.ok(scenarios.length >= 10, `tasks-* scenarios listed: ${scenarios.join(', ')}`);
  const results = await runAll(scenarios, url);
  const rows = [];
  const problems = [];
  for (const scenario of scenarios) {
    const checks = results.get(scenario);
    const count = (status) => checks.filter((c) => c.status === status).length;
    rows.push(`${scenario.padEnd(32)} passed ${count('SUCCESS')}  failed ${count('FAILURE')}  skipped-upstream ${count('SKIPPED')}  other ${checks.length - count('SUCCESS') - count('FAILURE') - count('SKIPPED')}`);
    assert.ok(checks.length > 0, `${scenario}: no checks`);
    for (const c of checks) {
      if (c.status === 'SUCCESS') continue;
      // The suite marks its own not-yet-runnable checks SKIPPED (tasks-status-notifications,
      // "pending subscriptions/listen rewrite"); anything else is a problem.
      if (c.status === 'SKIPPED' && scenario === 'tasks-status-notifications') continue;
      problems.push(`${scenario} / ${c.id}: ${c.status} ${c.errorMessage ?? ''}`);
    }
  }
  t.diagnostic(`conformance ${VERSION} against examples/sdk2-server:`);
  for (const row of rows) t.diagnostic(row);
  assert.deepEqual(problems, [], `${problems.join('\n')}\n--- server log ---\n${serverLog}`);
});

test('the harness sees failures: a bare SDK 2.4 server without the runtime fails tasks-capability-negotiation', { timeout: 120_000 }, async () => {
  const sdk = await import('@modelcontextprotocol/server');
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const z = await import('zod');
  const handler = sdk.createMcpHandler(() => {
    const bare = new sdk.McpServer({ name: 'bare', version: '1.0.0' });
    bare.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
    bare.registerTool('slow_compute', { inputSchema: z.object({ seconds: z.number(), label: z.string().optional() }) }, async () => ({ content: [{ type: 'text', text: 'done' }] }));
    return bare;
  });
  const bareServer = http.createServer(toNodeHandler(handler));
  await new Promise((resolve) => bareServer.listen(0, '127.0.0.1', resolve));
  try {
    const checks = await runScenario('tasks-capability-negotiation', `http://127.0.0.1:${bareServer.address().port}/mcp`);
    const failed = checks.filter((c) => c.status === 'FAILURE').map((c) => c.id);
    assert.ok(failed.includes('tasks-extension-advertised'), `failures seen: ${failed.join(', ')}`);
    assert.ok(failed.includes('sep-2663-tasks-methods-non-declaring'), `failures seen: ${failed.join(', ')}`);
  } finally {
    bareServer.close();
    await handler.close();
  }
});
