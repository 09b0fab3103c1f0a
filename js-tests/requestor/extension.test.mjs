// Node and Chromium: a TaskRequestor speaking the tasks extension (2026-07-28) drives a TextTaskEngine
// through a task with input and a cancel; every request it sends validates against the official
// tasks-extension schema.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withChromium } from '../helpers/browser.mjs';
import { manualClock, sequentialIds } from '../helpers/checked.mjs';
import { installPackage } from '../helpers/package.mjs';
import { assertValidIn } from '../helpers/schema.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
});
after(() => pkg?.cleanup());

/** The exchange, written once: runs with the module it is given (Node's, or the page's). */
function exchange(mod, now, newTaskId) {
  let t = now();
  const clock = () => t;
  const engine = new mod.TextTaskEngine({ now: clock, newTaskId, tools: { slow: 'required' }, pollIntervalMs: 1000 });
  const requestor = new mod.TextTaskRequestor({ now: clock });
  const dialect = requestor.useServerInfo(JSON.stringify({ supportedVersions: ['2026-07-28'], capabilities: { extensions: JSON.parse(mod.TextTaskRequestor.protocolJson()).extensionCapability } }));
  const sent = [];
  const events = [];
  const executing = [];
  const pump = () => {
    for (let moved = true; moved; ) {
      moved = false;
      for (let o; (o = requestor.pollOutput()) !== null; ) {
        moved = true;
        if (o.kind === 'send') {
          sent.push({ message: JSON.parse(o.message), mcpName: o.mcpName });
          const reply = engine.handle(o.message, 'page', { mcpName: o.mcpName ?? undefined });
          if (reply) requestor.handle(reply);
        } else events.push(o);
      }
      for (let o; (o = engine.pollOutput()) !== null; ) {
        moved = true;
        if (o.kind === 'send') requestor.handle(o.message);
        if (o.kind === 'execute') executing.push(o.taskId);
      }
    }
  };
  const tick = () => {
    t = Math.max(t, requestor.nextDeadline());
    requestor.handleTimeout();
    pump();
  };
  // The client declares form elicitation (in _meta; the requestor adds the extension): the task asks for a name.
  const declares = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
  const call = requestor.call('tools/call', JSON.stringify({ name: 'slow', arguments: { city: 'Paris' }, _meta: declares }), true);
  pump();
  const [taskId] = executing;
  engine.requestInput(taskId, 'elicitation/create', JSON.stringify({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }));
  tick();
  tick();
  const asked = events.filter((e) => e.kind === 'inputRequest');
  requestor.respond(asked[0].requestId, JSON.stringify({ action: 'accept', content: { name: 'Ada' } }));
  pump();
  const statusAfterAnswer = JSON.parse(engine.getTask(taskId, 'page')).status;
  engine.complete(taskId, JSON.stringify({ content: [{ type: 'text', text: 'Hello, Ada' }] }));
  tick();
  // A second call, cancelled.
  requestor.call('tools/call', JSON.stringify({ name: 'slow' }), true);
  pump();
  const second = executing[1];
  requestor.cancel(second);
  pump();
  tick();
  let listError = null;
  try {
    requestor.list();
  } catch (err) {
    listError = err.code;
  }
  return { dialect, call, sent, events, statusAfterAnswer, askedCount: asked.length, listError, tracked: requestor.tracked() };
}

function check(result) {
  assert.equal(result.dialect, '2026-07-28');
  assert.equal(result.askedCount, 1, 'each inputRequests key is surfaced once across polls');
  assert.equal(result.statusAfterAnswer, 'working');
  const methods = result.sent.map((s) => s.message.method);
  assert.ok(!methods.includes('tasks/result') && !methods.includes('tasks/list'));
  assert.ok(methods.includes('tasks/update') && methods.includes('tasks/cancel'));
  for (const { message, mcpName } of result.sent) {
    const def = { 'tasks/get': 'GetTaskRequest', 'tasks/update': 'UpdateTaskRequest', 'tasks/cancel': 'CancelTaskRequest' }[message.method];
    if (def) {
      assertValidIn('extension', def, message);
      assert.equal(mcpName, message.params.taskId);
    }
    assert.equal(message.params._meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
  }
  const finished = result.events.filter((e) => e.kind === 'finished');
  assert.deepEqual(finished.map((f) => f.status).sort(), ['cancelled', 'completed']);
  const done = JSON.parse(finished.find((f) => f.status === 'completed').response);
  assert.equal(done.id, JSON.parse(result.call));
  assert.equal(done.result.content[0].text, 'Hello, Ada');
  assert.equal(result.listError, 'invalid_argument');
  assert.deepEqual(result.tracked, []);
}

test('Node: a 2026-07-28 exchange, input and cancel', () => {
  const clock = manualClock();
  check(exchange(mod, clock.now, sequentialIds()));
});

test('Chromium: the same 2026-07-28 exchange in a page', { timeout: 90_000 }, async () => {
  const page = `<!doctype html><meta charset="utf-8"><script type="module">
    import * as mcp from '/pkg/entries/index.browser.js';
    const exchange = ${exchange.toString()};
    window.run = async () => {
      await mcp.init();
      let n = 0;
      return exchange(mcp, () => Date.UTC(2025, 10, 25), () => 'task-' + ++n);
    };
  </script>`;
  const result = await withChromium(
    async (p, baseUrl) => {
      await p.goto(`${baseUrl}/index.html`);
      await p.waitForFunction(() => typeof window.run === 'function');
      return p.evaluate(() => window.run());
    },
    { mounts: { '/pkg/': pkg.installed }, files: { '/index.html': page } },
  );
  check(result);
});
