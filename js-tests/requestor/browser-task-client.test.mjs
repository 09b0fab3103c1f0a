// In headless Chromium: TaskClient over the official SDK 1.x StreamableHTTPClientTransport
// (bundled for the page with esbuild), against examples/sdk-server. The page holds this
// package's browser build and the SDK's transport, and no HTTP code of its own; /mcp is
// passed through to the server so the page reaches it same-origin.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import esbuild from 'esbuild';
import { withChromium } from '../helpers/browser.mjs';
import { JS_TESTS_DIR, installPackage } from '../helpers/package.mjs';
import { startSdkServer } from './sdk-server.mjs';

let pkg;
let server;
let transportBundle;

before(async () => {
  pkg = installPackage();
  server = await startSdkServer(pkg);
  const built = await esbuild.build({
    stdin: { contents: "export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';", resolveDir: JS_TESTS_DIR },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  transportBundle = built.outputFiles[0].text;
});

after(async () => {
  await server?.stop();
  pkg?.cleanup();
});

const PAGE = `<!doctype html><meta charset="utf-8"><title>task client</title>
<script type="module">
  import * as mcp from '/pkg/entries/index.browser.js';
  import { StreamableHTTPClientTransport } from '/sdk-transport.js';
  window.run = async () => {
    await mcp.init();
    const client = new mcp.TaskClient(new StreamableHTTPClientTransport(new URL('/mcp', location.href)), {
      capabilities: { elicitation: {} },
      requestor: { pollFloorMs: 20 },
    });
    const dialect = await client.connect();
    const asked = [];
    const booking = await client.callTool('book_table', { restaurant: 'Wasm Bistro' }, {
      task: { ttl: 60_000 },
      onInputRequest: (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { name: 'Chromium', partySize: 2 } };
      },
    });
    const failure = await client.callTool('charge_card', { amount: 5 }, { task: true }).then(
      () => null,
      (e) => ({ code: e.code, data: e.data, status: e.status }),
    );
    const controller = new AbortController();
    const aborted = await client
      .callTool('process_files', { files: 50 }, { task: true, signal: controller.signal, onEvent: (e) => e.kind === 'created' && controller.abort() })
      .then(() => 'resolved', (e) => e.name);
    await client.close();
    return { dialect, booking, asked, failure, aborted, noNode: typeof globalThis.process === 'undefined' };
  };
</script>`;

test('Chromium: TaskClient over the SDK 1.x StreamableHTTPClientTransport, no hand-written HTTP', { timeout: 90_000 }, async () => {
  const result = await withChromium(
    async (page, baseUrl) => {
      await page.goto(`${baseUrl}/index.html`);
      await page.waitForFunction(() => typeof window.run === 'function');
      return page.evaluate(() => window.run());
    },
    {
      mounts: { '/pkg/': pkg.installed },
      files: { '/index.html': PAGE, '/sdk-transport.js': transportBundle },
      proxies: { '/mcp': new URL(server.url).origin },
    },
  );
  assert.equal(result.noNode, true, 'a real browser page, no Node');
  assert.equal(result.dialect, '2025-11-25');
  assert.equal(result.booking.status, 'completed');
  assert.match(result.booking.result.content[0].text, /Table for 2 at Wasm Bistro, under "Chromium"/);
  assert.equal(result.asked.length, 1);
  assert.deepEqual(result.failure, { code: -32010, data: { reason: 'insufficient_funds', retryable: false }, status: 'failed' });
  assert.equal(result.aborted, 'AbortError');
  // The abort reached the server as tasks/cancel: its work stops at the next file.
  for (let i = 0; !server.logs.join('').includes('cancelled by the client'); i++) {
    assert.ok(i < 20_000, `the server never saw the cancel:\n${server.logs.join('')}`);
    await new Promise((r) => setTimeout(r, 1));
  }
});
