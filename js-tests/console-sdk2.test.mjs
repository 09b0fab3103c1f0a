// The task console in headless Chromium against an SDK 2.x server: McpServer with TasksExtension
// over Streamable HTTP (createMcpHandler behind a Node HTTP server), the console mounted on the
// same server over tasksExtensionOperatorView. 2026-07-28 clients create the tasks over HTTP; the
// page shows them live, answers an input request (which completes the task) and cancels one
// (its work's signal fires); a request without the cookie is refused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { withChromium } from './helpers/browser.mjs';
import { ASK, cookieAuthorize, walkThroughConsole } from './helpers/console-browser.mjs';
import { REPO_ROOT } from './helpers/package.mjs';
import { installWithSdk2, modernClient } from './sdk2/harness.mjs';

let pkg;
let host;

const text = (value) => ({ content: [{ type: 'text', text: value }] });

async function startHost() {
  const server = await pkg.importServer();
  const { taskConsole, tasksExtensionOperatorView } = await import(pathToFileURL(path.join(pkg.installed, 'console/console.js')).href);
  const sdk = await import('@modelcontextprotocol/server');
  const z = await import('zod');
  const tasks = new server.TasksExtension({ engineOptions: { pollIntervalMs: 50 } });
  const aborted = new Set();
  const handler = sdk.createMcpHandler(() => {
    const mcp = new sdk.McpServer({ name: 'console-sdk2', version: '1.0.0' });
    tasks.install(mcp);
    tasks.registerTool(mcp, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      task.setStatus('holding until cancelled');
      await new Promise((resolve) => task.signal.addEventListener('abort', resolve, { once: true }));
      aborted.add(task.taskId);
      return text('never stored');
    });
    tasks.registerTool(mcp, 'ask', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      const answer = await task.elicit(ASK);
      return text(`Hello, ${answer.content.name}!`);
    });
    // A sampling request: no form for it, the page takes a JSON answer.
    tasks.registerTool(mcp, 'sample', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      const answer = await task.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Six times seven?' } }], maxTokens: 10 });
      return text(`The model said ${answer.content.text}`);
    });
    return mcp;
  });
  const con = taskConsole(tasksExtensionOperatorView(tasks), { authorize: cookieAuthorize, pollMs: 100, title: 'sdk2 server' });
  const httpServer = http.createServer(async (req, res) => {
    if (req.url.startsWith('/console')) return con.node(req, res);
    // The MCP endpoint: Node's request as a fetch Request, its Response back.
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${httpServer.address().port}`;
  const overHttp = { fetch: async (request) => fetch(`${origin}/mcp`, { method: 'POST', headers: request.headers, body: await request.text() }) };
  const client = modernClient(overHttp);
  const capabilities = { elicitation: { form: {} }, sampling: {} };
  return {
    origin,
    consolePath: '/console',
    start: async (tool) => (await client.result('tools/call', { name: tool, arguments: {} }, { capabilities })).taskId,
    status: async (taskId) => (await client.result('tasks/get', { taskId })).status,
    aborted: (taskId) => aborted.has(taskId),
    async close() {
      con.close();
      tasks.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

before(async () => {
  pkg = installWithSdk2('mcp-task-core-console-sdk2-');
  host = await startHost();
});
after(async () => {
  await host?.close();
  pkg?.cleanup();
});

test('chromium, SDK 2.x over HTTP: tasks appear live, an input request answered from the page completes its task, a cancel stops the work', { timeout: 90_000 }, async () => {
  await withChromium(async (page) => {
    // UPDATE_SCREENSHOT=1 writes the page with its answer form to docs/console-input.png (the README shows it).
    const shot = process.env.UPDATE_SCREENSHOT ? path.join(REPO_ROOT, 'docs', 'console-input.png') : path.join(os.tmpdir(), `console-input-${process.pid}.png`);
    const { asking } = await walkThroughConsole(page, { ...host, screenshot: shot });
    assert.deepEqual([...fs.readFileSync(shot).subarray(1, 4)], [0x50, 0x4e, 0x47]);
    if (!process.env.UPDATE_SCREENSHOT) fs.rmSync(shot);
    assert.match(await page.locator('#detail-body').innerText(), new RegExp(asking));

    // Anything but a form-shaped elicitation: the request as JSON, the answer typed as JSON.
    const sampling = await host.start('sample');
    const row = page.locator(`tr[data-task-id="${sampling}"]`);
    await page.waitForSelector(`tr[data-task-id="${sampling}"][data-status=input_required]`);
    await row.locator('button.id').click();
    const area = page.getByRole('textbox', { name: 'Answer (a JSON object)' });
    await area.waitFor();
    assert.match(await page.locator('#detail-body section.input pre').innerText(), /Six times seven\?/);
    await area.fill('not json');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.getByText(/^Not JSON:/).waitFor();
    await area.fill(JSON.stringify({ role: 'assistant', content: { type: 'text', text: '42' }, model: 'operator' }));
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.waitForSelector(`tr[data-task-id="${sampling}"][data-status=completed]`);
    await page.waitForSelector('#detail-body pre.outcome');
    assert.match(await page.locator('#detail-body pre.outcome').innerText(), /The model said 42/);
  });
});
