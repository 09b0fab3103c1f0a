// An MCP server on the official SDK 1.x whose tasks live in mcp-task-core, and a client that
// calls its tool as a task: both in one process, joined by the SDK's in-memory transport.
//
//   npm install mcp-task-core @modelcontextprotocol/sdk@1 zod && node sdk-server-and-client.mjs
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TaskClient } from 'mcp-task-core';
import { WasmTaskMessageQueue, WasmTaskStore } from 'mcp-task-core/sdk';
import { z } from 'zod';

// The server: the SDK's McpServer, with mcp-task-core as its task store.
const taskStore = new WasmTaskStore({ pollIntervalMs: 100 });
const server = new McpServer({ name: 'quickstart', version: '1.0.0' }, {
  taskStore,
  taskMessageQueue: new WasmTaskMessageQueue({ taskStore }),
  capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
});

// A task tool: `createTask` answers at once with the task; the work goes on and stores the result.
server.experimental.tasks.registerToolTask(
  'count_words',
  { inputSchema: { text: z.string() }, execution: { taskSupport: 'required' } },
  {
    createTask: async ({ text }, { taskStore, taskRequestedTtl }) => {
      const task = await taskStore.createTask({ ttl: taskRequestedTtl });
      const words = text.split(/\s+/).filter(Boolean);
      (async () => {
        for (let i = 1; i <= words.length; i++) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          await taskStore.updateTaskStatus(task.taskId, 'working', `read ${i} of ${words.length} words`);
        }
        await taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `${words.length} words` }] });
      })();
      return { task };
    },
    getTask: async (_args, { taskStore, taskId }) => taskStore.getTask(taskId),
    getTaskResult: async (_args, { taskStore, taskId }) => taskStore.getTaskResult(taskId),
  },
);

// The client: TaskClient over the other end of the transport pair (any SDK transport works).
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
const client = new TaskClient(clientTransport);
console.log('protocol', await client.connect());

// Every event of the call as it happens: created, status..., finished.
for await (const event of client.callToolStream('count_words', { text: 'tasks make long calls simple' }, { task: { ttl: 60_000 } })) {
  if (event.kind === 'created') console.log('created', event.taskId);
  if (event.kind === 'status') console.log('status', event.task.status, event.task.statusMessage ?? '');
  if (event.kind === 'finished') console.log('finished', event.status, event.response.result.content[0].text);
}
await client.close();
await server.close();
