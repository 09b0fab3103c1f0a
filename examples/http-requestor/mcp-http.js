// A browser-only (and Node) MCP client for task-augmented tool calls: the package's
// TaskRequestor decides and schedules, this file only moves messages over Streamable
// HTTP with fetch. No MCP SDK involved.
//
//   import * as mcp from 'mcp-task-core';
//   import { McpHttpClient } from './mcp-http.js';
//   const client = new McpHttpClient(mcp, 'http://127.0.0.1:3000/mcp');
//   await client.connect();
//   const outcome = await client.callTool('slow_report', { seconds: 1 }, { onInput: (req) => ({ action: 'accept', content: {...} }) });

const PROTOCOL_VERSION = '2025-11-25';

/** Splits a text/event-stream body into the `data` of each event. */
async function readEventStream(body, onData) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) onData(data);
    }
  }
}

export class McpHttpClient {
  /**
   * @param {any} mcp the mcp-task-core module (for TaskRequestor and shouldAugment)
   * @param {string} endpoint the server's Streamable HTTP endpoint
   * @param {{ log?: (line: string) => void, requestor?: object }} [options]
   */
  constructor(mcp, endpoint, { log = () => {}, requestor = {} } = {}) {
    this.mcp = mcp;
    this.endpoint = endpoint;
    this.log = log;
    this.sessionId = null;
    this.capabilities = null;
    this.requestor = new mcp.TextTaskRequestor({ pollFloorMs: 20, ...requestor });
    this.waiting = new Map(); // own request id -> resolve (initialize, tools/list)
    this.calls = new Map(); // requestor call id -> { resolve, reject, onInput, onStatus }
    this.byTask = new Map(); // task id -> call record
    this.timer = null;
    this.listeners = new Set(); // every requestor event, for UIs and tests
    this.errors = [];
    this.nextId = 0;
    this.closed = false;
  }

  headers() {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.sessionId) {
      h['mcp-session-id'] = this.sessionId;
      h['mcp-protocol-version'] = PROTOCOL_VERSION;
    }
    return h;
  }

  /** POSTs one message; every message in the answer goes to `receive`. */
  async post(message) {
    const res = await fetch(this.endpoint, { method: 'POST', headers: this.headers(), body: message });
    const session = res.headers.get('mcp-session-id');
    if (session) this.sessionId = session;
    if (res.status === 202 || res.status === 204) return;
    const type = res.headers.get('content-type') || '';
    if (type.includes('text/event-stream')) {
      await readEventStream(res.body, (data) => this.receive(data));
    } else if (type.includes('application/json')) {
      const text = await res.text();
      if (text) this.receive(text);
    } else if (!res.ok) {
      throw new Error(`HTTP ${res.status} from ${this.endpoint}: ${await res.text()}`);
    }
  }

  /**
   * Sends without waiting for the answer stream to end (a tasks/result may stay open). A
   * requestor request (`requestId`) whose POST fails, or whose stream ends without its answer,
   * is reported lost: the requestor sends a poll or tasks/result again, or reports the call.
   */
  fire(message, requestId = null) {
    const lost = () => {
      if (requestId !== null && !this.closed && this.requestor.requestFailed(requestId)) this.pump();
    };
    this.post(message).then(lost, (e) => {
      this.errors.push(e);
      lost();
    });
  }

  request(method, params) {
    const id = `client-${++this.nextId}`;
    const answer = new Promise((resolve) => this.waiting.set(id, resolve));
    this.fire(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer.then((msg) => {
      if (msg.error) throw Object.assign(new Error(msg.error.message), { code: msg.error.code });
      return msg.result;
    });
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.id !== undefined && this.waiting.has(msg.id) && msg.method === undefined) {
      this.waiting.get(msg.id)(msg);
      this.waiting.delete(msg.id);
      return;
    }
    this.requestor.handle(text);
    this.pump();
  }

  async connect() {
    const init = await this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'mcp-task-core-http-requestor', version: '0.1.0' },
    });
    this.capabilities = init.capabilities || {};
    await this.post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const { tools } = await this.request('tools/list', {});
    this.tools = new Map(tools.map((t) => [t.name, t]));
    this.log(`connected, session ${this.sessionId}, tasks capability ${JSON.stringify(this.capabilities.tasks)}`);
    return init;
  }

  /** Drains the requestor: sends what it asks, dispatches events, re-arms the timer. */
  pump() {
    for (let out; (out = this.requestor.pollOutput()); ) {
      if (out.kind === 'send') {
        this.fire(out.message, out.requestId);
        continue;
      }
      const call = this.calls.get(out.callId) || this.byTask.get(out.taskId);
      for (const listener of this.listeners) listener(out);
      switch (out.kind) {
        case 'created':
          this.log(`task ${out.taskId} created: ${JSON.parse(out.task).status}`);
          if (call) this.byTask.set(out.taskId, call);
          break;
        case 'status': {
          const task = JSON.parse(out.task);
          this.log(`task ${out.taskId} -> ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}`);
          call?.statuses.push(task.status);
          break;
        }
        case 'inputRequest': {
          const request = JSON.parse(out.request);
          this.log(`task ${out.taskId} asks: ${request.method} ${JSON.stringify(request.params?.message ?? '')}`);
          Promise.resolve(call?.onInput ? call.onInput(request) : { action: 'decline' }).then((answer) => {
            this.requestor.respond(out.requestId, JSON.stringify(answer));
            this.pump();
          });
          break;
        }
        case 'finished':
          this.log(`task ${out.taskId} finished: ${out.status}`);
          call?.resolve({ kind: 'task', taskId: out.taskId, status: out.status, statuses: call.statuses, response: JSON.parse(out.response) });
          break;
        case 'plainResponse':
          call?.resolve({ kind: 'plain', response: JSON.parse(out.response) });
          break;
        case 'callRefused':
          call?.resolve({ kind: 'refused', response: JSON.parse(out.response) });
          break;
        case 'cancelAnswered':
          if (JSON.parse(out.response).result?.status === 'cancelled') call?.resolve({ kind: 'cancelled', taskId: out.taskId });
          break;
        case 'lost':
          call?.resolve({ kind: 'lost', taskId: out.taskId, error: JSON.parse(out.error) });
          break;
        default:
          break;
      }
    }
    clearTimeout(this.timer);
    const due = this.requestor.nextDeadline();
    if (due !== null) {
      // A long pollInterval may be beyond what setTimeout takes (2^31 - 1 ms).
      this.timer = setTimeout(() => {
        this.requestor.handleTimeout();
        this.pump();
      }, Math.min(Math.max(0, due - Date.now()), 2 ** 31 - 1));
    }
  }

  /**
   * Calls a tool, as a task when the server and the tool allow it (and always when the
   * tool requires it). Resolves with the outcome: `{kind: 'task', status, response}`, or
   * `{kind: 'plain' | 'refused', response}`.
   */
  callTool(name, args, { preferTask = true, ttl = null, onInput } = {}) {
    const tool = this.tools?.get(name);
    const decision = this.mcp.shouldAugment(
      JSON.stringify(this.capabilities || {}),
      'tools/call',
      tool?.execution?.taskSupport ?? undefined,
      preferTask,
    );
    this.log(`calling ${name} ${decision.augment ? 'as a task' : 'plainly'}: ${decision.reason}`);
    const params = JSON.stringify({ name, arguments: args ?? {} });
    return new Promise((resolve, reject) => {
      const callId = this.requestor.call('tools/call', params, decision.augment ? ttl : undefined);
      this.calls.set(callId, { resolve, reject, onInput, statuses: [] });
      this.pump();
    });
  }

  /** Resolves with the next requestor event of `kind`. */
  next(kind) {
    return new Promise((resolve) => {
      const listener = (out) => {
        if (out.kind !== kind) return;
        this.listeners.delete(listener);
        resolve(out);
      };
      this.listeners.add(listener);
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.requestor.free?.();
  }
}
