// An official SDK Client (@modelcontextprotocol/sdk 1.x) that calls the tools of
// examples/sdk-server as tasks over Streamable HTTP and prints a readable lifecycle transcript:
// every status change, progress, the elicitation it answers, results and errors, tasks/list,
// tasks/cancel. It checks what it sees and exits non-zero if anything is off.
//
//   MCP_URL=http://127.0.0.1:3000/mcp node client.mjs      (or PORT=3000)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const url = new URL(process.env.MCP_URL || `http://127.0.0.1:${process.env.PORT || 3000}/mcp`);
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const out = (line = '') => console.log(line);
const short = (id) => (id ? `${id.slice(0, 8)}` : '?');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const textOf = (result) => (result?.content ?? []).map((c) => c.text ?? `[${c.type}]`).join(' ');
const failures = [];
function check(ok, what) {
  if (!ok) {
    failures.push(what);
    out(`    !! unexpected: ${what}`);
  }
}
/** An error message without the SDK's "MCP error <code>: " prefixes, on one line. */
function plain(message) {
  const m = String(message).replace(/^(MCP error -?\d+: )+/, '').replace(/\s+/g, ' ');
  return m.length > 110 ? `${m.slice(0, 110)}...` : m;
}
const statusLine = (t) => `${t.status}${t.statusMessage ? ` - ${t.statusMessage}` : ''}`;

const client = new Client({ name: 'mcp-task-core-sdk-demo-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  const related = request.params._meta?.[RELATED_TASK]?.taskId;
  out(`    <- elicitation/create for task ${short(related)}: "${request.params.message}"`);
  const content = { name: 'Ada Lovelace', partySize: 2 };
  out(`    -> answer: accept ${JSON.stringify(content)}`);
  return { action: 'accept', content };
});
client.onerror = (err) => out(`    (client error: ${err.message})`);

/** Calls a tool as a task with callToolStream and prints the lifecycle as it happens. */
async function callAsTask(name, args, { ttl = 60_000 } = {}) {
  out(`  -> tools/call ${name} ${JSON.stringify(args)} as a task (ttl ${ttl} ms)`);
  let taskId;
  let last = '';
  const statuses = [];
  let progress = 0;
  const onprogress = (p) => {
    progress++;
    out(`    ~ progress ${p.progress}/${p.total}${p.message ? ` (${p.message})` : ''}`);
  };
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    task: { ttl },
    onprogress,
    timeout: 120_000,
  });
  for await (const m of stream) {
    if (m.type === 'taskCreated') {
      taskId = m.task.taskId;
      out(`    task ${short(taskId)} created: ${m.task.status} (ttl ${m.task.ttl} ms, poll every ${m.task.pollInterval} ms)`);
    } else if (m.type === 'taskStatus') {
      statuses.push(m.task.status);
      const line = statusLine(m.task);
      if (line !== last) out(`    status: ${line}`);
      last = line;
      if (m.task.status === 'input_required') out('    (input required: tasks/result delivers the question)');
    } else if (m.type === 'result') {
      out(`    <= result${m.result.isError ? ' (isError)' : ''}: "${textOf(m.result)}"`);
      return { taskId, statuses, result: m.result, progress };
    } else {
      out(`    <= stream ended: error ${m.error.code}: ${plain(m.error.message)}`);
      return { taskId, statuses, error: m.error, progress };
    }
  }
  throw new Error('callToolStream ended without a result or error');
}

/** tasks/result, printed: a result or the JSON-RPC error it replays. */
async function fetchResult(taskId) {
  try {
    const r = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    out(`  -> tasks/result ${short(taskId)}: result${r.isError ? ' (isError)' : ''}: "${textOf(r)}"`);
    return { result: r };
  } catch (err) {
    out(`  -> tasks/result ${short(taskId)}: JSON-RPC error ${err.code}: ${plain(err.message)}${err.data !== undefined ? ` data=${JSON.stringify(err.data)}` : ''}`);
    return { error: err };
  }
}

async function expectError(what, promise) {
  try {
    await promise;
    out(`  -> ${what}: succeeded`);
    return null;
  } catch (err) {
    out(`  -> ${what}: refused, error ${err.code}: ${plain(err.message)}`);
    return err;
  }
}

async function main() {
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  const info = client.getServerVersion();
  out(`Connected to ${info.name} ${info.version} at ${url} (session ${short(transport.sessionId)}, protocol ${transport.protocolVersion ?? '2025-11-25'})`);
  const { tools } = await client.listTools();
  out(`Tools: ${tools.map((t) => `${t.name} [${t.execution?.taskSupport ?? 'forbidden'}]`).join(', ')}`);

  out('\n== 1. A long-running tool (taskSupport "required"), with progress ==');
  const files = await callAsTask('process_files', { files: 4 });
  check(files.result && textOf(files.result) === 'Processed 4 files', 'process_files completes with "Processed 4 files"');
  check(files.statuses.at(-1) === 'completed', 'process_files ends completed');
  check(files.progress >= 1, 'progress notifications arrive');
  const done = await client.experimental.tasks.getTask(files.taskId);
  out(`  -> tasks/get ${short(files.taskId)}: ${statusLine(done)}`);

  out('\n== 2. An optional tool: once as a task, once as a plain call ==');
  const wc = await callAsTask('word_count', { text: 'tasks make long calls simple' });
  check(wc.result && textOf(wc.result) === '5 words', 'word_count as a task gives "5 words"');
  out('  -> tools/call word_count (plain, no task)');
  const plainWc = await client.callTool({ name: 'word_count', arguments: { text: 'no task here' } });
  out(`    <= result: "${textOf(plainWc)}"  (the server ran it as a task internally and waited)`);
  check(textOf(plainWc) === '3 words', 'plain word_count gives "3 words"');

  out('\n== 3. A forbidden tool: a task is refused, a plain call works ==');
  const echoTask = await callAsTask('echo', { text: 'hello' });
  out('    (SDK 1.x servers run the tool and answer with a plain result; the client refuses it)');
  check(echoTask.error && !echoTask.taskId, 'echo as a task is refused and creates no task');
  const echo = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  out(`  -> tools/call echo (plain): "${textOf(echo)}"`);
  check(textOf(echo) === 'hello', 'plain echo works');

  out('\n== 4. Elicitation mid-task (input_required) ==');
  const booking = await callAsTask('book_table', { restaurant: 'Chez Wasm' });
  check(booking.statuses.includes('input_required'), 'book_table goes input_required');
  check(booking.result && textOf(booking.result).includes('Ada Lovelace'), 'the answer reaches the tool');
  check(booking.result?._meta?.[RELATED_TASK]?.taskId === booking.taskId, 'the result carries related-task _meta');
  const after = await client.experimental.tasks.getTask(booking.taskId);
  out(`  -> tasks/get ${short(booking.taskId)}: ${statusLine(after)}`);

  out('\n== 5. A tool error (isError: true): failed, tasks/result returns the tool result ==');
  const cfg = await callAsTask('read_config', { path: '/etc/demo.yaml' });
  out('    (callToolStream reports any failed task like this; the stored outcome comes from tasks/result)');
  check(cfg.error, 'the stream reports the failure');
  const cfgResult = await fetchResult(cfg.taskId);
  check(cfgResult.result?.isError === true, 'tasks/result returns the isError tool result');
  out(`  -> tasks/get ${short(cfg.taskId)}: ${statusLine(await client.experimental.tasks.getTask(cfg.taskId))}`);

  out('\n== 6. A JSON-RPC error: failed, tasks/result replays that error ==');
  const charge = await callAsTask('charge_card', { amount: 42 });
  check(charge.error, 'the stream reports the failure');
  const chargeResult = await fetchResult(charge.taskId);
  check(chargeResult.error?.code === -32010, 'tasks/result answers with the JSON-RPC error -32010');
  check(chargeResult.error?.data?.reason === 'insufficient_funds', 'the error data is kept');
  out(`  -> tasks/get ${short(charge.taskId)}: ${statusLine(await client.experimental.tasks.getTask(charge.taskId))}`);

  out('\n== 7. Cancel ==');
  const { task: long } = await client.request(
    { method: 'tools/call', params: { name: 'process_files', arguments: { files: 50 }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  out(`  -> tools/call process_files {"files":50} as a task: task ${short(long.taskId)} ${long.status}`);
  let seen;
  for (let i = 0; i < 100; i++) {
    seen = await client.experimental.tasks.getTask(long.taskId);
    if (seen.statusMessage) break;
    await sleep(50);
  }
  out(`  -> tasks/get: ${statusLine(seen)}`);
  const cancelled = await client.experimental.tasks.cancelTask(long.taskId);
  out(`  -> tasks/cancel ${short(long.taskId)}: ${statusLine(cancelled)}`);
  check(cancelled.status === 'cancelled', 'tasks/cancel answers with the cancelled task');
  await sleep(400);
  const still = await client.experimental.tasks.getTask(long.taskId);
  out(`  -> tasks/get after the work noticed: ${statusLine(still)}`);
  check(still.status === 'cancelled', 'a cancelled task stays cancelled');
  const again = await expectError(`tasks/cancel ${short(long.taskId)} again`, client.experimental.tasks.cancelTask(long.taskId));
  check(again?.code === -32602, 'cancelling a cancelled task is refused with -32602');
  const late = await expectError(`tasks/cancel ${short(files.taskId)} (completed)`, client.experimental.tasks.cancelTask(files.taskId));
  check(late?.code === -32602, 'cancelling a completed task is refused with -32602');

  out('\n== 8. tasks/list (this session\u2019s tasks, 4 per page) ==');
  let cursor;
  let page = 0;
  let total = 0;
  do {
    const res = await client.experimental.tasks.listTasks(cursor);
    page++;
    total += res.tasks.length;
    out(`  -> tasks/list page ${page}: ${res.tasks.map((t) => `${short(t.taskId)}:${t.status}`).join(' ')}${res.nextCursor ? '  (more)' : ''}`);
    cursor = res.nextCursor;
  } while (cursor);
  check(total === 7 && page === 2, 'tasks/list shows the 7 tasks of this session on 2 pages');

  out('\n== 9. Another session sees none of them ==');
  const other = new Client({ name: 'other-session', version: '1.0.0' });
  const otherTransport = new StreamableHTTPClientTransport(url);
  await other.connect(otherTransport);
  const otherList = await other.experimental.tasks.listTasks();
  out(`  -> session ${short(otherTransport.sessionId)}: tasks/list: ${otherList.tasks.length} tasks`);
  const foreign = await expectError(`session ${short(otherTransport.sessionId)}: tasks/get ${short(files.taskId)}`, other.experimental.tasks.getTask(files.taskId));
  check(otherList.tasks.length === 0 && foreign?.code === -32602, 'sessions are isolated');
  await otherTransport.terminateSession();
  await other.close();

  await transport.terminateSession();
  await client.close();
  out();
  if (failures.length) {
    out(`FAILED: ${failures.length} check(s): ${failures.join('; ')}`);
    process.exit(1);
  }
  out('All checks passed.');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
