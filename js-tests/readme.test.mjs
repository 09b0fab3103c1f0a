// The npm README's examples, run as written: every ```js block of the packed README.md is
// written to a file in a scratch project that has the package (and the SDKs, zod, ioredis)
// installed, and run in its own Node process with the globals the README leaves to the reader
// (helpers/readme-env.mjs: the transport, the work, the session); some are then driven and
// checked (readme-env.mjs `checks`). A Redis server is started for the Redis example.
// Blocks fenced ```js esbuild are browser code: bundled by esbuild and run in Chromium.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import esbuild from 'esbuild';
import { startRedis } from './durable/lib.mjs';
import { withChromium } from './helpers/browser.mjs';
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
  for (const dep of ['@modelcontextprotocol', '@opentelemetry', 'zod', 'ioredis']) {
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
 * `{ heading, code, line, browser }` of every fenced block whose info string starts with `js`.
 * `browser`: the block is fenced ```js esbuild, a page's module rather than a Node script.
 */
function jsBlocks(markdown) {
  const blocks = [];
  let heading = '';
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,4} (.*)$/.exec(lines[i]);
    if (h) heading = h[1];
    const fence = /^```(\S*)( esbuild)?$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `unclosed block at line ${i + 1}`);
    if (/^(js|javascript|mjs)$/.test(fence[1])) blocks.push({ heading, code: lines.slice(i + 1, end).join('\n') + '\n', line: i + 1, browser: fence[2] !== undefined });
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
      env: { ...process.env, MCP_URL: mcpUrl, REDIS_URL: `redis://127.0.0.1:${redis.port}`, TASK_CURSOR_KEY: 'ab'.repeat(16), PORT: '0' },
      encoding: 'utf8',
    });
  } catch (err) {
    assert.fail(`README.md line ${block.line} (under "${block.heading}"):\n${block.code}\n${err.stderr}`);
  }
}

/**
 * Bundles each browser block as a user would (esbuild, the .wasm as a file) into /assets/<i>/
 * and runs it in Chromium from a page elsewhere (/pages/<i>/index.html): its module must finish
 * (an `init` that fails rejects it) having loaded its .wasm from beside the bundle.
 */
async function runBrowserBlocks(blocks) {
  const mounts = {};
  const files = {};
  for (const { block, i } of blocks) {
    const dir = path.join(pkg.dir, `browser-${i}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'block.js'), block.code);
    fs.writeFileSync(path.join(dir, 'entry.js'), "import './block.js';\ndocument.body.dataset.status = 'done';\n");
    await esbuild.build({ entryPoints: [path.join(dir, 'entry.js')], outdir: path.join(dir, 'dist'), bundle: true, format: 'esm', platform: 'browser', loader: { '.wasm': 'file' }, logLevel: 'silent' });
    mounts[`/assets/${i}/`] = path.join(dir, 'dist');
    files[`/pages/${i}/index.html`] = `<!doctype html><body><script type="module" src="/assets/${i}/entry.js"></script></body>`;
  }
  await withChromium(
    async (page, baseUrl, { logs }) => {
      for (const { block, i } of blocks) {
        const wasm = [];
        const onResponse = (res) => res.url().endsWith('.wasm') && wasm.push(`${new URL(res.url()).pathname} ${res.status()}`);
        page.on('response', onResponse);
        logs.length = 0;
        await page.goto(`${baseUrl}/pages/${i}/index.html`);
        const status = await page.waitForFunction(() => document.body.dataset.status, null, { timeout: 10_000 }).then(
          (handle) => handle.jsonValue(),
          () => 'unfinished',
        );
        page.off('response', onResponse);
        const where = `README.md line ${block.line} (under "${block.heading}"), bundled by esbuild:\n${block.code}`;
        assert.equal(status, 'done', `${where}\nthe module did not finish; browser log:\n${logs.join('\n')}\n.wasm responses: ${wasm.join(', ')}`);
        assert.equal(wasm.length, 1, `${where}\n.wasm responses: ${wasm.join(', ')}`);
        assert.match(wasm[0], new RegExp(`^/assets/${i}/\\S+\\.wasm 200$`), where);
      }
    },
    { mounts, files },
  );
}

test('every js example of the npm README runs as written', { timeout: 180_000 }, async () => {
  const readme = fs.readFileSync(path.join(pkg.installed, 'README.md'), 'utf8');
  const blocks = jsBlocks(readme);
  assert.ok(blocks.length >= 10, `found ${blocks.length} js blocks`);
  const headings = new Set(blocks.map((b) => b.heading));
  const driven = ['Node', 'Cloudflare Workers', 'Serving it from Node', 'A task console (`mcp-task-core/console`)', 'Browser clients (CORS)', 'Authenticated users', 'Choosing the principal', 'Work that outlives its request'];
  for (const checked of driven) assert.ok(headings.has(checked), `an example under "${checked}"`);
  const browser = [];
  for (const [i, block] of blocks.entries()) {
    if (block.browser) browser.push({ block, i });
    else await runBlock(block, `readme-${i}.mjs`);
  }
  assert.ok(browser.length >= 2, `found ${browser.length} browser blocks`);
  await runBrowserBlocks(browser);
});

test('a README example that throws fails the check', { timeout: 30_000 }, async () => {
  const broken = jsBlocks("## Node\n\n```js\nimport { TaskEngine } from 'mcp-task-core';\nnew TaskEngine().complete('nope', {});\n```\n");
  assert.equal(broken.length, 1);
  await assert.rejects(runBlock(broken[0], 'readme-broken.mjs'), /unknown_task|No live task/);
});
