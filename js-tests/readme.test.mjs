// The npm README's examples, run as written: every ```js block of the packed README.md is
// written to a file in a scratch project that has the package (and the SDKs, zod, ioredis)
// installed, and run in its own Node process with the globals the README leaves to the reader
// (helpers/readme-env.mjs: the transport, the work, the session); some are then driven and
// checked (readme-env.mjs `checks`). A Redis server is started for the Redis example.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { startRedis } from './durable/lib.mjs';
import { JS_TESTS_DIR, REPO_ROOT, installPackage } from './helpers/package.mjs';

const run = promisify(execFile);
const RUNNER = path.join(JS_TESTS_DIR, 'helpers', 'readme-run.mjs');

let pkg;
let redis;
let mcpServer;
let mcpUrl;

/** examples/sdk-server (SDK 1.x with our store) on a free port: the requestor examples' server. */
async function startExampleServer() {
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk-server', 'server.mjs'), path.join(pkg.dir, 'sdk-server.mjs'));
  const child = spawn(process.execPath, ['sdk-server.mjs'], { cwd: pkg.dir, env: { ...process.env, PORT: '0', STEP_MS: '20' } });
  let output = '';
  mcpUrl = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const m = /listening on (\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => reject(new Error(`examples/sdk-server exited (${code}): ${output}`)));
  });
  return child;
}
before(async () => {
  pkg = installPackage();
  for (const dep of ['@modelcontextprotocol', 'zod', 'ioredis']) {
    fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', dep), path.join(pkg.dir, 'node_modules', dep));
  }
  redis = await startRedis();
  mcpServer = await startExampleServer();
});
after(async () => {
  mcpServer?.kill();
  await redis?.stop();
  pkg?.cleanup();
});

/**
 * `{ heading, code, line, page }` of every fenced block whose info string starts with `js`.
 * `page`: a block fenced as ```js page=PATH is the start of a bundled page (PATH, in the repository)
 * that js-tests/packaging.test.mjs builds and runs in Chromium, rather than a Node script.
 */
function jsBlocks(markdown) {
  const blocks = [];
  let heading = '';
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,4} (.*)$/.exec(lines[i]);
    if (h) heading = h[1];
    const fence = /^```(\S*)(?: page=(\S+))?$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `unclosed block at line ${i + 1}`);
    if (/^(js|javascript|mjs)$/.test(fence[1])) blocks.push({ heading, code: lines.slice(i + 1, end).join('\n') + '\n', line: i + 1, page: fence[2] });
    i = end;
  }
  return blocks;
}

async function runBlock(block, name) {
  const file = path.join(pkg.dir, name);
  fs.writeFileSync(file, block.code);
  try {
    await run(process.execPath, [RUNNER, file, block.heading], {
      cwd: pkg.dir,
      env: { ...process.env, MCP_URL: mcpUrl, REDIS_URL: `redis://127.0.0.1:${redis.port}`, TASK_CURSOR_KEY: 'ab'.repeat(16) },
      encoding: 'utf8',
    });
  } catch (err) {
    assert.fail(`README.md line ${block.line} (under "${block.heading}"):\n${block.code}\n${err.stderr}`);
  }
}

test('every js example of the npm README runs as written', { timeout: 120_000 }, async () => {
  const readme = fs.readFileSync(path.join(pkg.installed, 'README.md'), 'utf8');
  const blocks = jsBlocks(readme);
  assert.ok(blocks.length >= 10, `found ${blocks.length} js blocks`);
  const headings = new Set(blocks.map((b) => b.heading));
  for (const checked of ['Node', 'Cloudflare Workers']) assert.ok(headings.has(checked), `an example under "${checked}"`);
  for (const [i, block] of blocks.entries()) {
    if (block.page) {
      const page = fs.readFileSync(path.join(REPO_ROOT, block.page), 'utf8');
      assert.ok(page.startsWith(block.code), `README.md line ${block.line}: ${block.page} does not start with the block as written`);
    } else {
      await runBlock(block, `readme-${i}.mjs`);
    }
  }
});

test('a README example that throws fails the check', { timeout: 30_000 }, async () => {
  const broken = jsBlocks("## Node\n\n```js\nimport { TaskEngine } from 'mcp-task-core';\nnew TaskEngine().complete('nope', {});\n```\n");
  assert.equal(broken.length, 1);
  await assert.rejects(runBlock(broken[0], 'readme-broken.mjs'), /unknown_task|No live task/);
});
