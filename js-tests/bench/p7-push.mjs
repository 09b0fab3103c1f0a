// P7: how soon a TaskClient has a task's outcome once the work has ended, pushed (a
// subscriptions/listen stream for the task's notifications/tasks) vs polled (tasks/get at the
// 1 s interval the server advertises). A TasksExtension server on the SDK 2.x
// (createMcpHandler wrapped by withTaskListen) and the client's StreamableHTTPClientTransport
// in one process, no sockets: what is measured is the protocol's wait, not the network. The
// work lasts each of WORK_MS in turn, so the polled figure samples the interval evenly.
import { PKG_DIR, median } from './lib.mjs';

const POLL_MS = 1_000;
const WORK_MS = [150, 450, 750];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function benchPush({ rounds = 1 } = {}) {
  process.env.PKG_DIR = PKG_DIR;
  const { installWithSdk2 } = await import('../sdk2/harness.mjs');
  const pkg = installWithSdk2('mcp-task-core-p7-');
  try {
    const { TaskClient } = await pkg.importEsm();
    const { TasksExtension } = await pkg.importServer();
    const sdk = await import('@modelcontextprotocol/server');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const z = await import('zod');
    const tasks = new TasksExtension({ engineOptions: { pollIntervalMs: POLL_MS } });
    const ended = new Map(); // label -> performance.now() when the work ended
    const handler = tasks.withTaskListen(
      sdk.createMcpHandler(() => {
        const server = new sdk.McpServer({ name: 'p7', version: '1.0.0' });
        tasks.install(server);
        tasks.registerTool(server, 'work', { taskSupport: 'required', inputSchema: z.object({ ms: z.number(), label: z.string() }) }, async ({ ms, label }) => {
          await sleep(ms);
          ended.set(label, performance.now());
          return { content: [{ type: 'text', text: label }] };
        });
        return server;
      }),
    );
    const client = async (listen) => {
      const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) });
      const c = new TaskClient(transport, { requestor: { listen } });
      await c.connect();
      return c;
    };
    const pushed = await client(true);
    const polled = await client(false);
    const lags = { pushed: [], polled: [] };
    let n = 0;
    for (let round = 0; round < rounds; round++) {
      for (const ms of WORK_MS) {
        for (const [mode, c] of [['pushed', pushed], ['polled', polled]]) {
          const label = `${mode}-${++n}`;
          await c.callTool('work', { ms, label }, { task: true });
          lags[mode].push(performance.now() - ended.get(label));
        }
      }
    }
    await pushed.close();
    await polled.close();
    tasks.close();
    return {
      pollMs: POLL_MS,
      workMs: WORK_MS,
      runs: lags.pushed.length,
      pushedMs: median(lags.pushed),
      polledMs: median(lags.polled),
      pushedMaxMs: Math.max(...lags.pushed),
      polledMaxMs: Math.max(...lags.polled),
      lags,
    };
  } finally {
    pkg.cleanup();
  }
}
