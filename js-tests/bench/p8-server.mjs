// P8's servers (js-tests/bench/p8-http.mjs), one per process, run from a scratch project that
// has the package and the SDK 2.x packages. MODE picks the hosting:
//   floor        a bare node:http server: reads the body, JSON.parse, answers the canned reply
//                of its method (FLOOR_REPLIES, JSON: method, or tools/call:<name> → reply text with "id":0) under the
//                request's id: what any server answering the same JSON costs at least
//   floor-web    the same answers from a web-standard handler behind toNodeHandler (the SDK's
//                Node adapter, which every hosting below goes through)
//   per-request  toNodeHandler(tasks.withTaskListen(createMcpHandler(factory))), a new McpServer
//                per request (the SDK's contract)
//   fast         the README's hosting: the same behind tasks.fastPath (tasks/get, update and cancel
//                answered from the engine in the listener, with the SDK's checks)
//   fast-reused  the same, the factory handing out idle McpServers again (a pool)
//   reused       the same, the factory handing out idle McpServers again (a pool)
//   light        the same, tasks/* requests served by an McpServer with no tools registered
//   engine-only  not a hosting (no checks): tasks/get answered from the engine ahead of the
//                SDK, the bound of any fast path behind toNodeHandler
//   node-engine  not a hosting: the same in the node:http listener, ahead of toNodeHandler too
// Prints "listening on <url>".
import http from 'node:http';

const MODE = process.env.MODE;
const ADDRESS_HEADER = 'x-client-address';
let listener;

if (MODE === 'floor-web') {
  // The floor behind the SDK's Node adapter: a web-standard handler (Request in, Response out)
  // answering the same bytes, served by toNodeHandler; what the adapter alone costs.
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const replies = JSON.parse(process.env.FLOOR_REPLIES);
  listener = toNodeHandler({
    fetch: async (request) => {
      const body = await request.json();
      const key = body.method === 'tools/call' ? `tools/call:${body.params.name}` : body.method;
      return new Response(replies[key].replace('"id":0', `"id":${JSON.stringify(body.id)}`), { headers: { 'content-type': 'application/json' } });
    },
  });
} else if (MODE === 'floor') {
  const replies = JSON.parse(process.env.FLOOR_REPLIES);
  listener = (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const request = JSON.parse(body);
      const key = request.method === 'tools/call' ? `tools/call:${request.params.name}` : request.method;
      const reply = replies[key].replace('"id":0', `"id":${JSON.stringify(request.id)}`);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    });
  };
} else {
  const [{ McpServer, createMcpHandler }, { toNodeHandler }, { TasksExtension }, z] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('@modelcontextprotocol/node'),
    import('mcp-task-core/server'),
    import('zod'),
  ]);
  const noLimit = 9e15;
  const tasks = new TasksExtension({
    // Lifted limits: one client sends thousands of requests a second here.
    engineOptions: { limits: { rateLimit: null, maxRunningTasksPerKey: 1e6, maxRunningTasksTotal: 1e6, maxStoredBytesPerKey: noLimit, maxStoredBytesTotal: noLimit } },
    quotaKey: { addressHeader: ADDRESS_HEADER },
  });
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  // The task tool of every server, registered once (the README's hosting): the fast path
  // creates its tasks itself.
  tasks.registerTool('report', { description: 'A report, as a task', taskSupport: 'required', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => text(`report on ${topic}`));
  const build = () => {
    const server = new McpServer({ name: 'p7-bench', version: '1.0.0' });
    tasks.install(server);
    server.registerTool('greet', { description: 'Says hello', inputSchema: z.object({ name: z.string() }) }, async ({ name }) => text(`Hello, ${name}!`));
    return server;
  };
  let factory = build;
  if (MODE === 'reused' || MODE === 'fast-reused') {
    // An instance serves one exchange at a time: it is idle again when its exchange closes it.
    const idle = [];
    factory = () => {
      const server = idle.pop() ?? build();
      const previous = server.server.onclose;
      server.server.onclose = () => {
        server.server.onclose = previous;
        idle.push(server);
      };
      return server;
    };
  } else if (MODE === 'light' || MODE === 'engine-only' || MODE === 'node-engine') {
    // tasks/* need no tools: their McpServer has the runtime installed and nothing else. The
    // SDK has checked the Mcp-Method header against the body before it calls the factory.
    factory = ({ requestInfo }) => {
      if (!requestInfo?.headers.get('mcp-method')?.startsWith('tasks/')) return build();
      const server = new McpServer({ name: 'p7-bench', version: '1.0.0' });
      tasks.install(server);
      return server;
    };
  } else if (MODE !== 'per-request' && MODE !== 'fast') {
    throw new Error(`MODE ${MODE}?`);
  }
  let handler = tasks.withTaskListen(createMcpHandler(factory, { legacy: 'reject' }));
  if (MODE === 'engine-only') {
    // Not a hosting: what answering tasks/get straight from the engine (no SDK, no checks) costs,
    // the bound of any fast path.
    const sdk = handler;
    handler = {
      ...sdk,
      fetch: async (request, options) => {
        if (request.headers.get('mcp-method') !== 'tasks/get') return sdk.fetch(request, options);
        const body = await request.json();
        const reply = JSON.parse(tasks.engine.handle(JSON.stringify(body), null, { dialect: '2026-07-28', quotaKey: `address:${request.headers.get(ADDRESS_HEADER)}` }));
        reply.result._meta = { 'io.modelcontextprotocol/serverInfo': { name: 'p7-bench', version: '1.0.0' } };
        return Response.json(reply);
      },
    };
  }
  const serve = MODE.startsWith('fast') ? tasks.fastPath(toNodeHandler(handler)) : toNodeHandler(handler);
  listener = (req, res) => {
    req.headers[ADDRESS_HEADER] = req.socket.remoteAddress;
    serve(req, res);
  };
  if (MODE === 'node-engine') {
    // Not a hosting either: tasks/get answered from the engine in the node:http listener, ahead of
    // the Node adapter too (no checks): the bound of a fast path that bypasses toNodeHandler.
    const sdk = listener;
    const serverInfo = { name: 'p7-bench', version: '1.0.0' };
    listener = (req, res) => {
      if (req.headers['mcp-method'] !== 'tasks/get') return sdk(req, res);
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const reply = JSON.parse(tasks.engine.handle(body, null, { dialect: '2026-07-28', quotaKey: `address:${req.socket.remoteAddress}` }));
        reply.result._meta = { 'io.modelcontextprotocol/serverInfo': serverInfo };
        const text = JSON.stringify(reply);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    };
  }
}

const server = http.createServer({ keepAliveTimeout: 60_000 }, listener);
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => process.exit(0));
