// `mcp-task-core/requestor`: the requestor-only build (its own, smaller .wasm, no receiver), as a
// client app imports it. In Node and in headless Chromium it resolves to its own entry (the
// exports map's "node" / "browser" conditions), loads only the requestor .wasm, and its
// TaskClient runs tasks on a real server (examples/sdk-server, the official SDK 1.x) over the
// SDK's StreamableHTTPClientTransport: an input request answered mid-task, a failed task. In
// workerd (its "workerd" condition) it instantiates and sends a task request. Its types check
// with tsc, and name no receiver.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import esbuild from 'esbuild';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { withChromium } from '../helpers/browser.mjs';
import { withWorkerd } from '../helpers/workerd.mjs';
import { JS_TESTS_DIR, installPackage } from '../helpers/package.mjs';
import { startSdkServer } from './sdk-server.mjs';

const EXPORTS = ['TaskClient', 'TaskRequestor', 'TextTaskRequestor', 'init', 'shouldAugment'];
const REQUESTOR_WASM = 'requestor-web/mcp_task_core_requestor_bg.wasm';

let pkg;
let server;

before(async () => {
  pkg = installPackage({ prefix: 'mcp-task-core-requestor-only-' });
  server = await startSdkServer(pkg);
});

after(async () => {
  await server?.stop();
  pkg?.cleanup();
});

/** The calls both runtimes make; `mcp` is the imported `mcp-task-core/requestor`, `Transport` the SDK's. */
async function bookAndCharge(mcp, Transport, url) {
  await mcp.init();
  const client = new mcp.TaskClient(new Transport(new URL(url)), {
    capabilities: { elicitation: {} },
    requestor: { pollFloorMs: 20 },
  });
  const dialect = await client.connect();
  const asked = [];
  const booking = await client.callTool('book_table', { restaurant: 'Size Bistro' }, {
    task: { ttl: 60_000 },
    onInputRequest: (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Requestor', partySize: 3 } };
    },
  });
  const failure = await client.callTool('charge_card', { amount: 5 }, { task: true }).then(
    () => null,
    (e) => ({ code: e.code, data: e.data, status: e.status }),
  );
  await client.close();
  const augment = mcp.shouldAugment('{"tasks":{"requests":{"tools":{"call":{}}}}}', 'tools/call', 'optional', true).augment;
  return { dialect, booking, asked, failure, augment };
}

function assertRun(result) {
  assert.equal(result.dialect, '2025-11-25');
  assert.equal(result.booking.status, 'completed');
  assert.match(result.booking.result.content[0].text, /Table for 3 at Size Bistro, under "Requestor"/);
  assert.equal(result.asked.length, 1);
  assert.deepEqual(result.failure, { code: -32010, data: { reason: 'insufficient_funds', retryable: false }, status: 'failed' });
  assert.equal(result.augment, true);
}

test('Node: mcp-task-core/requestor resolves to the requestor-only entry and runs tasks on a real server', { timeout: 60_000 }, async () => {
  const probe = path.join(pkg.dir, 'probe-requestor.mjs');
  fs.writeFileSync(probe, "export * as mcp from 'mcp-task-core/requestor';\nexport const entry = import.meta.resolve('mcp-task-core/requestor');\n");
  const { mcp, entry } = await import(pathToFileURL(probe).href);
  assert.equal(entry, pathToFileURL(path.join(pkg.installed, 'entries/requestor.node.mjs')).href);
  assert.deepEqual(Object.keys(mcp).sort(), EXPORTS, 'the requestor classes, and no receiver');
  // Its glue loads the requestor-only .wasm, the one copy in requestor-web/.
  const glue = fs.readFileSync(path.join(pkg.installed, 'requestor-node-esm/mcp_task_core_requestor.js'), 'utf8');
  assert.match(glue, /new URL\(['"]\.\.\/requestor-web\/mcp_task_core_requestor_bg\.wasm['"], import\.meta\.url\)/);
  assertRun(await bookAndCharge(mcp, StreamableHTTPClientTransport, server.url));
});

test('Chromium: mcp-task-core/requestor (browser condition) fetches only the requestor .wasm and runs tasks', { timeout: 90_000 }, async () => {
  const built = await esbuild.build({
    stdin: { contents: "export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';", resolveDir: JS_TESTS_DIR },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  // The page imports the bare specifier; the import map points it where the exports map's
  // "browser" condition does, as a bundler would.
  const browserEntry = pkg.packageJson.exports['./requestor'].browser;
  const page = `<!doctype html><meta charset="utf-8"><title>requestor only</title>
<script type="importmap">${JSON.stringify({ imports: { 'mcp-task-core/requestor': `/pkg/${browserEntry.replace(/^\.\//, '')}` } })}</script>
<script type="module">
  import * as mcp from 'mcp-task-core/requestor';
  import { StreamableHTTPClientTransport } from '/sdk-transport.js';
  ${bookAndCharge.toString()}
  window.exportNames = Object.keys(mcp).sort();
  // Before init(): each wasm-backed export says to await init(), not a bindings TypeError.
  const codeOf = (call) => { try { call(); return 'no error'; } catch (err) { return err.code; } };
  window.early = [codeOf(() => new mcp.TaskRequestor()), codeOf(() => new mcp.TextTaskRequestor()), codeOf(() => mcp.shouldAugment('{}', 'tools/call', null, true))];
  window.run = () => bookAndCharge(mcp, StreamableHTTPClientTransport, new URL('/mcp', location.href).href);
</script>`;
  const wasmFetched = [];
  const result = await withChromium(
    async (p, baseUrl) => {
      p.on('request', (r) => r.url().endsWith('.wasm') && wasmFetched.push(new URL(r.url()).pathname));
      await p.goto(`${baseUrl}/index.html`);
      await p.waitForFunction(() => typeof window.run === 'function');
      const early = await p.evaluate(() => window.early);
      return { early, exportNames: await p.evaluate(() => window.exportNames), run: await p.evaluate(() => window.run()) };
    },
    {
      mounts: { '/pkg/': pkg.installed },
      files: { '/index.html': page, '/sdk-transport.js': built.outputFiles[0].text },
      proxies: { '/mcp': new URL(server.url).origin },
    },
  );
  assert.deepEqual(result.exportNames, EXPORTS);
  assert.deepEqual(result.early, ['not_initialized', 'not_initialized', 'not_initialized']);
  assert.deepEqual(wasmFetched, [`/pkg/${REQUESTOR_WASM}`], 'only the requestor-only .wasm');
  assertRun(result.run);
});

const CONSUMER = `import { init, shouldAugment, TaskClient, TaskRequestor, TextTaskRequestor, type TaskRequestorOptions } from 'mcp-task-core/requestor';
// @ts-expect-error the requestor-only entry has no receiver
import { TextTaskEngine } from 'mcp-task-core/requestor';
export async function start(options: TaskRequestorOptions): Promise<string> {
  await init();
  const text = new TextTaskRequestor(options);
  const requestor = new TaskRequestor(options);
  const decision: boolean = shouldAugment('{}', 'tools/call', null, true).augment;
  void TextTaskEngine;
  void TaskClient;
  return \`\${text.dialect} \${requestor.dialect} \${decision}\`;
}
`;

test('types: mcp-task-core/requestor checks with tsc --strict (nodenext and bundler resolution)', { timeout: 90_000 }, async () => {
  const tsc = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  fs.writeFileSync(path.join(pkg.dir, 'requestor-consumer.ts'), CONSUMER);
  for (const [name, options] of [['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }], ['bundler', { module: 'esnext', moduleResolution: 'bundler' }]]) {
    const config = path.join(pkg.dir, `tsconfig.requestor-${name}.json`);
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false, ...options };
    fs.writeFileSync(config, JSON.stringify({ compilerOptions, files: ['requestor-consumer.ts'] }));
    await promisify(execFile)(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: pkg.dir }).catch((err) =>
      assert.fail(`tsc (${name}) failed:\n${err.stdout}${err.stderr}`),
    );
  }
});

test('workerd: the requestor-only entry (workerd condition) instantiates and sends a task-augmented call', { timeout: 120_000 }, async () => {
  const entry = pkg.packageJson.exports['./requestor'].workerd;
  const script = `import * as mcp from ${JSON.stringify(entry)};
export default {
  async fetch() {
    await mcp.init();
    const requestor = new mcp.TaskRequestor({ now: () => 1000 });
    const callId = requestor.call('tools/call', { name: 'slow' }, { task: { ttl: 5000 } });
    const out = requestor.pollOutput();
    return Response.json({ exports: Object.keys(mcp).sort(), callId, out });
  },
};`;
  const body = await withWorkerd({ script, pkgDir: pkg.installed }, async (url) => (await fetch(url)).json());
  assert.deepEqual(body.exports, EXPORTS);
  assert.equal(body.out.kind, 'send');
  assert.deepEqual(body.out.message, {
    jsonrpc: '2.0',
    id: body.callId,
    method: 'tools/call',
    params: { name: 'slow', task: { ttl: 5000 } },
  });
});
