// A browser-only MCP client: in headless Chromium, the package's browser build and the
// fetch-based client of examples/http-requestor run task-augmented tool calls end to end
// against the official SDK 1.x server (examples/sdk-server) over Streamable HTTP. The page
// has this package and nothing else; /mcp is passed through to the server's port so the
// page reaches it same-origin.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { withChromium } from '../helpers/browser.mjs';
import { REPO_ROOT, installPackage } from '../helpers/package.mjs';
import { startSdkServer } from './sdk-server.mjs';

let pkg;
let server;

before(async () => {
  pkg = installPackage();
  server = await startSdkServer(pkg);
});

after(async () => {
  await server?.stop();
  pkg?.cleanup();
});

const PAGE = `<!doctype html><meta charset="utf-8"><title>requestor</title>
<script type="module">
  import * as mcp from '/pkg/entries/index.browser.js';
  import { McpHttpClient } from '/client/mcp-http.js';
  window.run = async () => {
    await mcp.init();
    const log = [];
    const client = new McpHttpClient(mcp, new URL('/mcp', location.href).href, { log: (l) => log.push(l) });
    await client.connect();
    const asked = [];
    const booking = await client.callTool('book_table', { restaurant: 'Wasm Bistro' }, {
      onInput: (req) => { asked.push(req.params.message); return { action: 'accept', content: { name: 'Chromium', partySize: 2 } }; },
    });
    const failure = await client.callTool('charge_card', { amount: 5 });
    const plain = await client.callTool('echo', { text: 'plain' });
    client.close();
    return { booking, failure, plain, asked, log, hasFetchOnly: typeof globalThis.process === 'undefined' };
  };
</script>`;

test('Chromium: a browser-only client runs task-augmented tool calls against the SDK server', { timeout: 90_000 }, async () => {
  const result = await withChromium(
    async (page, baseUrl) => {
      await page.goto(`${baseUrl}/index.html`);
      await page.waitForFunction(() => typeof window.run === 'function');
      return page.evaluate(() => window.run());
    },
    {
      mounts: { '/pkg/': pkg.installed, '/client/': path.join(REPO_ROOT, 'examples', 'http-requestor') },
      files: { '/index.html': PAGE },
      proxies: { '/mcp': new URL(server.url).origin },
    },
  );
  assert.equal(result.hasFetchOnly, true, 'a real browser page, no Node');
  assert.equal(result.booking.kind, 'task');
  assert.equal(result.booking.status, 'completed');
  assert.ok(result.booking.statuses.includes('input_required'), `statuses seen: ${result.booking.statuses}`);
  assert.match(result.booking.response.result.content[0].text, /Table for 2 at Wasm Bistro, under "Chromium"/);
  assert.equal(result.asked.length, 1);
  assert.equal(result.failure.status, 'failed');
  assert.equal(result.failure.response.error.code, -32010, 'the JSON-RPC error, replayed exactly');
  assert.equal(result.plain.kind, 'plain');
  assert.ok(result.log.some((l) => l.includes('as a task')));
});
