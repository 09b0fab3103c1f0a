#!/usr/bin/env node
// A minimal MCP server over stdio (newline-delimited JSON-RPC) whose tool calls can run as
// tasks (MCP 2025-11-25), with mcp-task-core doing the task protocol.
//
//   node server.mjs            then write one JSON-RPC message per line on stdin
//
// The tool `slow_echo` takes 1 s and echoes `arguments.text`. Call it with `params.task` to
// run it as a task (CreateTaskResult at once; then tasks/get, tasks/result, tasks/list,
// tasks/cancel), or without to get the result after 1 s.
import { createInterface } from 'node:readline';
import { TaskEngine } from 'mcp-task-core';

const WORK_MS = Number(process.env.WORK_MS ?? 1000);
// stdio has one peer, the process that started us: one fixed context.
const CONTEXT = 'stdio';
const TOOLS = [
  {
    name: 'slow_echo',
    description: `Echoes its text after ${WORK_MS} ms`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    execution: { taskSupport: 'optional' },
  },
];

const engine = new TaskEngine({ tools: { slow_echo: 'optional' } });
const jobs = new Map(); // taskId -> timeout of the running work
let deadlineTimer;

// A string is exact JSON text (an output's `text`); an object is stringified.
const write = (message) => process.stdout.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
const respond = (id, result) => write({ jsonrpc: '2.0', id, result });
const respondError = (id, code, message) => write({ jsonrpc: '2.0', id, error: { code, message } });

// The tool itself: 1 s of "work", then a CallToolResult.
function slowEcho(args, done) {
  const text = typeof args?.text === 'string' ? args.text : '';
  return setTimeout(() => done({ content: [{ type: 'text', text: `echo: ${text}` }] }), WORK_MS);
}

// Everything the engine says is not its business: a plain MCP server.
function handlePlain(msg) {
  if (msg.id === undefined || msg.method === undefined) return; // notifications, responses
  switch (msg.method) {
    case 'initialize':
      return respond(msg.id, {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {}, tasks: engine.capabilities(CONTEXT) },
        serverInfo: { name: 'mcp-task-core-stdio-example', version: '0.1.0' },
      });
    case 'ping':
      return respond(msg.id, {});
    case 'tools/list':
      return respond(msg.id, { tools: TOOLS });
    case 'tools/call': // without a task: answer when the work is done
      if (msg.params?.name !== 'slow_echo') return respondError(msg.id, -32602, `Unknown tool: ${msg.params?.name}`);
      return slowEcho(msg.params.arguments, (result) => respond(msg.id, result));
    default:
      return respondError(msg.id, -32601, `Method not found: ${msg.method}`);
  }
}

// After every call into the engine: act on its outputs, then re-arm the TTL timer.
function drain() {
  for (let out = engine.pollOutput(); out !== null; out = engine.pollOutput()) {
    switch (out.kind) {
      case 'send': // replies to waiting tasks/result, status notifications, progress
        write(out.text);
        break;
      case 'execute': {
        const taskId = out.taskId;
        jobs.set(taskId, slowEcho(out.request.params.arguments, (result) => {
          jobs.delete(taskId);
          try {
            engine.complete(taskId, result);
          } catch (err) {
            // task_cancelled / unknown_task: the task ended while we worked; drop the result.
            if (!['task_cancelled', 'unknown_task'].includes(err.code)) throw err;
          }
          drain();
        }));
        break;
      }
      case 'cancelled':
      case 'expired':
        clearTimeout(jobs.get(out.taskId));
        jobs.delete(out.taskId);
        break;
      case 'forward':
        handlePlain(out.message);
        break;
      case 'inputResponse': // this tool never asks for input
        break;
    }
  }
  clearTimeout(deadlineTimer);
  const deadline = engine.nextDeadline();
  if (deadline !== null) {
    deadlineTimer = setTimeout(() => {
      engine.handleTimeout();
      drain();
    }, Math.max(0, deadline - Date.now()));
    deadlineTimer.unref(); // expiry alone does not keep the process alive
  }
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (line.trim() === '') return;
  const reply = engine.handle(line, CONTEXT); // the line as received: bad JSON gets a parse error
  if (reply !== null) write(reply);
  drain();
});
// On EOF: let running work finish (its results go out), then exit.
input.on('close', () => {
  const wait = setInterval(() => {
    if (jobs.size === 0) {
      clearInterval(wait);
      engine.free();
    }
  }, 50);
});
