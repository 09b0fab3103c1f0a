// The official tasks requester, `@modelcontextprotocol/ext-tasks` on the SDK 2.x `Client`,
// running tasks of examples/sdk2-server over Streamable HTTP and printing each lifecycle: on
// the tasks extension (2026-07-28) a task that asks for input, a task cancelled while it waits
// for input, a tool error and a JSON-RPC error; then as a 2025-11-25 client of the same server
// a task, a cancelled task and a tool error. It checks what it sees and exits non-zero if anything is off.
//
//   MCP_URL=http://127.0.0.1:3000/mcp node client.mjs      (or PORT=3000)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';

const url = new URL(process.env.MCP_URL || `http://127.0.0.1:${process.env.PORT || 3000}/mcp`);
const CLIENT_INFO = { name: 'mcp-task-core-sdk2-demo-client', version: '1.0.0' };
const CAPABILITIES = { elicitation: { form: {} } };

const out = (line = '') => console.log(line);
const short = (id) => (id ? String(id).slice(0, 8) : '?');
const textOf = (result) => (result?.content ?? []).map((c) => c.text ?? `[${c.type}]`).join(' ');
const failures = [];
function check(ok, what) {
  if (!ok) {
    failures.push(what);
    out(`    !! unexpected: ${what}`);
  }
}

// ext-tasks sends task traffic of the 2026-07-28 extension through a host-owned raw request
// path (the SDK 2.x Client refuses `resultType: "task"`): a plain HTTP POST with the standard
// Mcp-Method / Mcp-Name headers. The request it hands over is already framed (_meta envelope).
let rawSeq = 0;
async function rawDispatch(request, options = {}) {
  const body = { jsonrpc: '2.0', id: `raw-${++rawSeq}`, ...request };
  const name = body.method === 'tools/call' ? body.params?.name : body.method.startsWith('tasks/') ? body.params?.taskId : undefined;
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': body.method,
  });
  if (name !== undefined) headers.set('mcp-name', name);
  for (const [key, value] of Object.entries(options.context?.headers ?? {})) headers.set(key, value);
  const response = await fetch(url, { method: 'POST', signal: options.signal, headers, body: JSON.stringify(body) });
  const text = await response.text();
  let message;
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const m = JSON.parse(line.slice(5));
      if (m.id === body.id && m.method === undefined) message = m;
    }
  } else {
    message = JSON.parse(text);
  }
  if (message === undefined) throw new Error(`no response to ${body.method} (HTTP ${response.status})`);
  return message.error !== undefined ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result };
}

/** Answers input requests; `applicationContext.onInput` of a call may take over. */
async function onInputRequest(request, context) {
  const special = context.applicationContext?.onInput;
  if (special) return special(request, context);
  out(`    <- input request (${request.kind}) for task ${short(context.taskId)}: "${request.params.message}"`);
  const answer = { action: 'accept', content: { pace: 'packed' } };
  out(`    -> answer: ${answer.action} ${JSON.stringify(answer.content)}`);
  return answer;
}

function printEvent(event, seen) {
  if (event.type !== 'task') return;
  const t = event.task;
  const line = `${t.status}${t.statusMessage ? ` - ${t.statusMessage}` : ''}`;
  if (seen.at(-1) !== line) out(`    status: ${line}`);
  seen.push(line);
}

/** Calls a tool through the session and prints its lifecycle; returns the settlement. */
async function run(session, name, args, { onInput, whileRunning } = {}) {
  out(`  -> callTool ${name} ${JSON.stringify(args)}`);
  const execution = await session.callTool(name, args, { applicationContext: { onInput }, task: { preference: 'prefer' } });
  if (execution.kind === 'task') out(`    task ${short(execution.handle.taskId)} created`);
  else out('    answered at once (no task)');
  const seen = [];
  const settled = execution.settle({ onEvent: (event) => printEvent(event, seen) });
  if (whileRunning) await whileRunning(execution);
  const { outcome } = await settled;
  if (outcome.status === 'completed') out(`    <= completed${outcome.result.isError ? ' (isError)' : ''}: "${textOf(outcome.result)}"`);
  else if (outcome.status === 'failed') {
    const { code, message, data } = outcome.error;
    out(`    <= failed: ${code === undefined ? '' : `error ${code}: `}${message}${data === undefined ? '' : ` data=${JSON.stringify(data)}`}`);
  }
  else out('    <= cancelled');
  return { execution, outcome, seen };
}

async function connect(era) {
  const client = new Client(CLIENT_INFO, {
    capabilities: CAPABILITIES,
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  // The tools' declarations: a 2025-11-25 client asks for a task where `execution.taskSupport`
  // allows one; on 2026-07-28 the server decides.
  const { tools } = await client.listTools();
  const declarations = new Map(tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
  const session = createTaskSessionFromClient(client, {
    endpointId: `demo-${era}`,
    tools: { currentTool: (name) => declarations.get(name) },
    onInputRequest,
    ...(era === 'modern'
      ? { rawDispatch, v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES } }
      : {}),
  });
  return { client, session };
}

async function modernSet() {
  const { client, session } = await connect('modern');
  const caps = client.getServerCapabilities();
  out(`  server capabilities: extensions=${JSON.stringify(caps?.extensions ?? {})} tasks=${JSON.stringify(caps?.tasks ?? null)}`);
  try {
    out();
    out('  1. a task that asks for input');
    const trip = await run(session, 'plan_trip', { city: 'Lisbon', days: 2 });
    check(trip.execution.kind === 'task', 'plan_trip runs as a task');
    check(trip.seen.some((s) => s.startsWith('input_required')), 'input_required was observed');
    check(trip.outcome.status === 'completed' && /2-day packed plan for Lisbon/.test(textOf(trip.outcome.result)), 'plan_trip completes with the answer');

    out();
    out('  2. a task cancelled while it waits for input');
    let release;
    const waiting = new Promise((resolve) => (release = resolve));
    const cancelled = await run(
      session,
      'plan_trip',
      { city: 'Oslo', days: 5 },
      {
        onInput: (request, context) => {
          out(`    <- input request (${request.kind}) for task ${short(context.taskId)}: "${request.params.message}" (left unanswered)`);
          release();
          return new Promise((_, reject) => context.signal?.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
        },
        whileRunning: async (execution) => {
          await waiting;
          out(`    -> cancel task ${short(execution.handle?.taskId)}`);
          await execution.cancel();
        },
      },
    );
    check(cancelled.outcome.status === 'cancelled', 'the task cancelled while waiting for input ends cancelled');

    out();
    out('  3. a tool error (isError: the task is completed) and a JSON-RPC error (the task failed)');
    const toolError = await run(session, 'failing_job', {});
    check(toolError.outcome.status === 'completed' && toolError.outcome.result.isError === true, 'a tool error is a completed task with isError');
    const rpcError = await run(session, 'protocol_error_job', {});
    check(rpcError.outcome.status === 'failed' && rpcError.outcome.error.code === -32603, 'a JSON-RPC error fails the task with its code');
  } finally {
    await session.close();
    await client.close();
  }
}

async function legacySet() {
  const { client, session } = await connect('legacy');
  const caps = client.getServerCapabilities();
  out(`  server capabilities: tasks=${JSON.stringify(caps?.tasks ?? null)}`);
  try {
    out();
    out('  1. a task');
    const done = await run(session, 'slow_compute', { seconds: 0.3, label: 'forecast' });
    check(done.execution.kind === 'task', '2025-11-25: slow_compute runs as a task');
    check(done.outcome.status === 'completed' && /computed forecast/.test(textOf(done.outcome.result)), '2025-11-25: the task completes with its result');

    out();
    out('  2. a task cancelled while it works');
    const cancelled = await run(session, 'slow_compute', { seconds: 30, label: 'never' }, {
      whileRunning: async (execution) => {
        out(`    -> cancel task ${short(execution.handle?.taskId)}`);
        await execution.cancel();
      },
    });
    check(cancelled.outcome.status === 'cancelled', '2025-11-25: the cancelled task ends cancelled');

    out();
    out('  3. a tool error (isError: the task failed, as 2025-11-25 says)');
    const toolError = await run(session, 'failing_job', {});
    check(toolError.outcome.status === 'failed', '2025-11-25: a tool error fails the task');
  } finally {
    await session.close();
    await client.close();
  }
}

out(`MCP server: ${url}`);
out();
out('== Tasks extension (io.modelcontextprotocol/tasks, protocol 2026-07-28), ext-tasks on the SDK 2.x Client');
await modernSet();
out();
out('== The same server and engine to a 2025-11-25 client (initialize handshake, MCP tasks 2025-11-25)');
// ext-tasks 0.2.2 reads a 2025-11-25 task only by tasks/get until it is terminal, and never
// calls tasks/result on input_required, where 2025-11-25 delivers input requests: a task that
// asks for input is shown on 2026-07-28 only.
await legacySet();
out();
if (failures.length > 0) {
  out(`${failures.length} check(s) failed:`);
  for (const f of failures) out(`  - ${f}`);
  process.exit(1);
}
out('All checks passed.');
