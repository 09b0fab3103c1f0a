// The task console: a page an operator keeps open to watch every task of a server live, served
// by a handler the host mounts (a fetch-style `(Request) => Response` for Workers and Durable
// Objects, and `node(req, res)` for Node's HTTP server). It reads tasks through an operator view
// (`list`, `get`, `cancel`, optional `input` and `answer`, optional `subscribe`); `sdkOperatorView`
// makes one of a WasmTaskStore, `tasksExtensionOperatorView` of a TasksExtension.
// Closed by default: every request is refused (403) unless the host's `authorize` says yes.
import { CONSOLE_PAGE } from './console-page.js';
import { PROTOCOL } from '../core/protocol.js';
import { runtimeOperatorView } from '../runtime/operator-view.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
/** Status changes kept per task for the page's timeline. */
const TIMELINE_LIMIT = 50;
const HEARTBEAT_MS = 15_000;

/** @param {unknown} value */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The operator view of a `WasmTaskStore` (mcp-task-core/sdk, SDK 1.x): every session's tasks
 * through `store.allSessions()`. To learn each task's tool and session, and to report changes
 * at once, it wraps this store's `createTask`, `updateTaskStatus` and `storeTaskResult` (the
 * wrappers call the originals unchanged). Tasks it did not see created (made before the view,
 * or by another instance on the same storage) have no tool or session; changes it does not see
 * (another instance's) reach the console by its polling. No `input`/`answer`: SDK 1.x carries
 * a task's input requests and their answers in its own Protocol, not in the store.
 * @param {import('../adapters/sdk-v1.js').WasmTaskStore} store
 */
export function sdkOperatorView(store) {
  if (!store || typeof store.allSessions !== 'function') throw new TypeError('sdkOperatorView(store) takes a WasmTaskStore (mcp-task-core/sdk)');
  const all = store.allSessions();
  /** taskId -> where it came from, for tasks created since the view was made. */
  const origins = new Map();
  const listeners = new Set();
  /** @param {string} taskId */
  const changed = (taskId) => {
    for (const listener of listeners) {
      try {
        listener(taskId);
      } catch {
        // a listener's fault is its own
      }
    }
  };
  const createTask = store.createTask;
  const updateTaskStatus = store.updateTaskStatus;
  const storeTaskResult = store.storeTaskResult;
  Object.assign(store, {
    async createTask(/** @type {any[]} */ ...args) {
      const task = await createTask.apply(store, args);
      const request = args[2];
      const tool = request?.method === 'tools/call' && typeof request.params?.name === 'string' ? request.params.name : undefined;
      origins.set(task.taskId, { tool, context: typeof args[3] === 'string' ? args[3] : null });
      changed(task.taskId);
      return task;
    },
    async updateTaskStatus(/** @type {any[]} */ ...args) {
      await updateTaskStatus.apply(store, args);
      changed(args[0]);
    },
    async storeTaskResult(/** @type {any[]} */ ...args) {
      await storeTaskResult.apply(store, args);
      changed(args[0]);
    },
  });
  store.onTaskExpired((taskId) => {
    origins.delete(taskId);
    changed(taskId);
  });
  store.onTaskCancelled((taskId) => changed(taskId));
  /** @param {any} task */
  const described = (task) => {
    const origin = origins.get(task.taskId);
    return { ...task, tool: origin?.tool ?? null, context: origin?.context ?? null };
  };
  return {
    /** The store's dashboard figures (see WasmTaskStore.figures). */
    figures: () => store.figures(),
    async list(/** @type {{ status?: string }} */ filter = {}) {
      const before = new Set(origins.keys());
      const tasks = [];
      let cursor;
      do {
        const page = await all.listTasks(cursor);
        for (const task of page.tasks) {
          before.delete(task.taskId);
          if (filter.status === undefined || task.status === filter.status) tasks.push(described(task));
        }
        cursor = page.nextCursor;
      } while (cursor);
      // Listed from start to end without them: gone (expired or deleted).
      for (const taskId of before) origins.delete(taskId);
      return tasks;
    },
    async get(/** @type {string} */ taskId) {
      const task = await all.getTask(taskId);
      if (task === null) return null;
      const out = described(task);
      if (task.status === 'completed' || task.status === 'failed') {
        try {
          out.result = await all.getTaskResult(taskId);
        } catch (err) {
          const e = /** @type {any} */ (err);
          if (typeof e?.code !== 'number') throw err;
          out.error = e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data };
        }
      }
      return out;
    },
    async cancel(/** @type {string} */ taskId, /** @type {string | undefined} */ message) {
      await all.updateTaskStatus(taskId, 'cancelled', message);
      changed(taskId);
    },
    subscribe(/** @type {(taskId: string) => void} */ listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * The operator view of a `TasksExtension` (mcp-task-core/server, SDK 2.x): the tasks its engine
 * holds (`engine.snapshot()` names them), each read in its own context (the principal), `cancel`
 * through the runtime, so the work's `signal` fires, and a task's pending input answered as its
 * client would. No change hook: the console polls. Tool names are not kept by the runtime
 * (`tool` is `null`). With `storage`, the tasks this instance holds.
 * @param {import('../adapters/sdk-v2.js').TasksExtension} tasks
 */
export function tasksExtensionOperatorView(tasks) {
  const engine = tasks?.engine;
  if (!engine || typeof engine.snapshot !== 'function' || typeof tasks.cancel !== 'function' || !tasks.runtime) {
    throw new TypeError('tasksExtensionOperatorView(tasks) takes a TasksExtension (mcp-task-core/server)');
  }
  return runtimeOperatorView(tasks.runtime, (taskId, message) => tasks.cancel(taskId, message));
}

/**
 * One poller shared by every open event stream of a console: lists the tasks every `pollMs`
 * (and at once when the view reports a change), and queues for each stream what changed. The
 * streams drive it and write their own queue, each from its own timer: in workerd a response
 * stream is written from the request that opened it, and its timers end with that request.
 */
class Feed {
  /**
   * @param {any} view
   * @param {number} pollMs
   * @param {(err: unknown) => void} onerror
   */
  constructor(view, pollMs, onerror) {
    this.view = view;
    this.pollMs = pollMs;
    this.onerror = onerror;
    /** @type {Set<{ push: (event: string, data: unknown) => void, greeted: boolean }>} */
    this.streams = new Set();
    /** taskId -> { json, task, timeline } */
    this.tasks = new Map();
    this.unsubscribe = undefined;
    this.running = false;
    this.again = false;
    /** When the last listing ended (0: none yet since the first stream joined). */
    this.listedAt = 0;
    /** While listing fails: the error's message (each stream is told once). */
    this.failing = null;
    /** The view's dashboard figures as last sent (JSON), when the view has them. */
    this.figures = null;
  }

  /**
   * A stream joins: `push(event, data)` queues for it. It gets the snapshot once the tasks are
   * listed (at once when they are).
   * @param {(event: string, data: unknown) => void} push
   */
  join(push) {
    const stream = { push, greeted: false };
    this.streams.add(stream);
    if (this.streams.size === 1) this.start();
    if (this.listedAt > 0) this.greet(stream);
    else void this.refresh();
    return stream;
  }

  /** @param {{ push: (event: string, data: unknown) => void, greeted: boolean }} stream */
  greet(stream) {
    stream.greeted = true;
    stream.push('snapshot', { tasks: [...this.tasks.values()].map(({ task, timeline }) => ({ ...task, timeline })) });
    if (this.failing !== null) stream.push('feed', { ok: false, message: this.failing });
    if (this.figures !== null) stream.push('figures', JSON.parse(this.figures));
  }

  /** @param {{ push: (event: string, data: unknown) => void, greeted: boolean }} stream */
  leave(stream) {
    if (this.streams.delete(stream) && this.streams.size === 0) this.stop();
  }

  start() {
    this.tasks.clear();
    this.listedAt = 0;
    if (typeof this.view.subscribe === 'function') this.unsubscribe = this.view.subscribe(() => void this.refresh());
  }

  stop() {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Each open stream's timer: lists when the last listing is `pollMs` old. */
  tick() {
    if (this.streams.size > 0 && Date.now() - this.listedAt >= this.pollMs) void this.refresh();
  }

  /** @param {string} event @param {unknown} data */
  broadcast(event, data) {
    for (const stream of this.streams) if (stream.greeted) stream.push(event, data);
  }

  /** Lists once (never two at a time: a change during a listing lists again after it). */
  async refresh() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        await this.round();
        this.listedAt = Date.now();
        for (const stream of this.streams) if (!stream.greeted) this.greet(stream);
      } while (this.again && this.streams.size > 0);
    } finally {
      this.running = false;
    }
  }

  async round() {
    let list;
    try {
      list = await this.view.list({});
    } catch (err) {
      this.onerror(err);
      const message = String(/** @type {any} */ (err)?.message ?? err);
      if (this.failing !== message) this.broadcast('feed', { ok: false, message });
      this.failing = message;
      return;
    }
    if (this.failing !== null) this.broadcast('feed', { ok: true });
    this.failing = null;
    const seen = new Set();
    for (const task of list) {
      seen.add(task.taskId);
      const json = JSON.stringify(task);
      const known = this.tasks.get(task.taskId);
      if (known?.json === json) continue;
      const timeline = known?.timeline ?? [];
      const last = timeline[timeline.length - 1];
      if (last?.status !== task.status || last?.statusMessage !== (task.statusMessage ?? null)) {
        timeline.push({ status: task.status, statusMessage: task.statusMessage ?? null, at: task.lastUpdatedAt });
        if (timeline.length > TIMELINE_LIMIT) timeline.splice(0, timeline.length - TIMELINE_LIMIT);
      }
      this.tasks.set(task.taskId, { json, task, timeline });
      this.broadcast('task', { ...task, timeline });
    }
    for (const taskId of [...this.tasks.keys()]) {
      if (seen.has(taskId)) continue;
      this.tasks.delete(taskId);
      this.broadcast('gone', { taskId });
    }
    if (typeof this.view.figures !== 'function') return;
    const figures = JSON.stringify(await this.view.figures());
    if (figures === this.figures) return;
    this.figures = figures;
    this.broadcast('figures', JSON.parse(figures));
  }
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const PAGE_HEADERS = {
  ...SECURITY_HEADERS,
  'content-type': 'text/html; charset=utf-8',
  // Everything the page shows is set as text (never as HTML); it talks to its own origin only.
  'content-security-policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** @param {number} status @param {unknown} body */
const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' } });
/** @param {number} status @param {string} message */
const refusal = (status, message) => json(status, { error: message });

/**
 * The console's handler. Mount it under `basePath` (default `/console`): the page is at
 * `basePath/`, its event stream at `basePath/events`, the JSON of the tasks at `basePath/tasks`
 * and `basePath/tasks/{id}` (with `inputRequests` while it waits on input), the view's dashboard
 * figures at `basePath/figures`, cancel at
 * `POST basePath/tasks/{id}/cancel`, an input request's answer at `POST basePath/tasks/{id}/answer`.
 * @param {any} view  an operator view (see console.d.ts)
 * @param {{ authorize?: (request: Request, nodeRequest?: any) => boolean | Promise<boolean>, basePath?: string, pollMs?: number, title?: string, onerror?: (err: unknown) => void }} [options]
 */
export function taskConsole(view, options = {}) {
  if (!view || typeof view.list !== 'function' || typeof view.get !== 'function' || typeof view.cancel !== 'function') {
    throw new TypeError('taskConsole(view) takes an operator view: { list, get, cancel, subscribe? } (e.g. sdkOperatorView(store))');
  }
  if (!isObject(options)) throw new TypeError('options must be an object');
  const { authorize, basePath = '/console', pollMs = 500, title = 'Tasks', onerror = () => {} } = options;
  if (authorize !== undefined && typeof authorize !== 'function') throw new TypeError('options.authorize must be a function (request) => boolean | Promise<boolean>');
  if (typeof basePath !== 'string' || (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/')))) {
    throw new TypeError('options.basePath must be "" or a path such as "/console" (no trailing slash)');
  }
  if (typeof pollMs !== 'number' || !(pollMs >= 50)) throw new TypeError('options.pollMs must be a number of milliseconds, at least 50');
  const feed = new Feed(view, pollMs, onerror);
  /** Whether the view reads and answers input requests (`input` and `answer`). */
  const answers = typeof view.input === 'function' && typeof view.answer === 'function';
  /** Ends each open event stream (close()). */
  const closers = new Set();
  const page = CONSOLE_PAGE.replaceAll('__TITLE__', String(title).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`));

  /** @param {Request} request @param {any} [nodeRequest] */
  const allowed = async (request, nodeRequest) => {
    if (authorize === undefined) return false;
    try {
      return (await authorize(request, nodeRequest)) === true;
    } catch (err) {
      onerror(err);
      return false;
    }
  };

  /** How often each open event stream writes what its queue holds (and lets the feed list). */
  const flushMs = Math.min(pollMs, 100);

  /** @param {Request} request */
  const events = (request) => {
    const encoder = new TextEncoder();
    /** @type {string[]} */
    const queue = [];
    /** @type {any} */
    let stream;
    let timer;
    let quietSince = Date.now();
    /** @type {() => void} */
    let end = () => {};
    const close = () => {
      clearInterval(timer);
      if (stream !== undefined) feed.leave(stream);
      closers.delete(end);
    };
    const body = new ReadableStream({
      start(controller) {
        const write = (/** @type {string} */ text) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            close();
          }
          quietSince = Date.now();
        };
        write('retry: 2000\n\n');
        // Written from this stream's own timer only (see Feed).
        timer = setInterval(() => {
          feed.tick();
          if (queue.length > 0) write(queue.splice(0).join(''));
          else if (Date.now() - quietSince >= HEARTBEAT_MS) write(': keep-alive\n\n');
        }, flushMs);
        end = () => {
          close();
          try {
            controller.close();
          } catch {
            // already closed
          }
        };
        closers.add(end);
        request.signal?.addEventListener('abort', close, { once: true });
        stream = feed.join((event, data) => void queue.push(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      },
      cancel: close,
    });
    return new Response(body, { headers: { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' } });
  };

  /** A task with what it waits on (`inputRequests`, when the view can read and answer them). */
  const detail = async (/** @type {string} */ taskId) => {
    const task = await view.get(taskId);
    if (task === null || task.status !== 'input_required' || !answers) return task;
    return { ...task, inputRequests: (await view.input(taskId)) ?? [] };
  };

  /**
   * The JSON body of a POST from the console page, or a refusal. A form or a page of another
   * site cannot send JSON here without a CORS preflight.
   * @param {Request} request @param {string} what
   */
  const pageBody = async (request, what) => {
    if (request.method !== 'POST') return { refused: refusal(405, 'POST only') };
    if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '') || request.headers.get('sec-fetch-site') === 'cross-site') {
      return { refused: refusal(403, `${what} takes a JSON request from the console page`) };
    }
    try {
      const text = await request.text();
      const body = text === '' ? {} : JSON.parse(text);
      if (isObject(body)) return { body };
    } catch {
      // refused below
    }
    return { refused: refusal(400, `The body must be a JSON object`) };
  };

  /** @param {Request} request @param {string} taskId @param {string} action */
  const taskRoute = async (request, taskId, action) => {
    if (action === '') {
      if (request.method !== 'GET') return refusal(405, 'GET only');
      const task = await detail(taskId);
      return task === null ? refusal(404, `No task ${taskId}`) : json(200, task);
    }
    if (action !== 'cancel' && action !== 'answer') return refusal(404, 'Not found');
    if (action === 'answer' && !answers) return refusal(404, "This server's operator view does not answer input requests");
    const { body, refused } = await pageBody(request, action === 'cancel' ? 'Cancel' : 'Answer');
    if (refused) return refused;
    const task = await view.get(taskId);
    if (task === null) return refusal(404, `No task ${taskId}`);
    if (TERMINAL.has(task.status)) return refusal(409, `Task ${taskId} already ended (${task.status})`);
    if (action === 'cancel') {
      await view.cancel(taskId, typeof body.message === 'string' ? body.message : 'Cancelled by an operator');
    } else {
      if (typeof body.requestId !== 'string' || !isObject(body.result)) return refusal(400, 'The body must be { "requestId": string, "result": object }');
      const pending = (await view.input(taskId)) ?? [];
      if (!pending.some((/** @type {any} */ input) => input.requestId === body.requestId)) return refusal(409, `Task ${taskId} does not wait on input request ${body.requestId}`);
      await view.answer(taskId, body.requestId, body.result);
    }
    void feed.refresh();
    return json(200, (await detail(taskId)) ?? task);
  };

  /** @param {Request} request @param {any} [nodeRequest] */
  const fetch = async (request, nodeRequest) => {
    if (!(await allowed(request, nodeRequest))) return refusal(403, 'Forbidden');
    const url = new URL(request.url);
    if (basePath !== '' && url.pathname !== basePath && !url.pathname.startsWith(basePath + '/')) return refusal(404, 'Not found');
    const route = url.pathname.slice(basePath.length);
    try {
      if (route === '') return new Response(null, { status: 308, headers: { ...SECURITY_HEADERS, location: `${basePath}/${url.search}` } });
      if (route === '/') return request.method === 'GET' || request.method === 'HEAD' ? new Response(page, { headers: PAGE_HEADERS }) : refusal(405, 'GET only');
      if (route === '/events') return request.method === 'GET' ? events(request) : refusal(405, 'GET only');
      if (route === '/figures') {
        if (request.method !== 'GET') return refusal(405, 'GET only');
        return typeof view.figures === 'function' ? json(200, await view.figures()) : refusal(404, "This server's operator view has no figures");
      }
      if (route === '/tasks') {
        if (request.method !== 'GET') return refusal(405, 'GET only');
        const status = url.searchParams.get('status') ?? undefined;
        if (status !== undefined && !STATUSES.has(status)) return refusal(400, `Unknown status ${status}: one of ${[...STATUSES].join(', ')}`);
        return json(200, { tasks: await view.list(status === undefined ? {} : { status }) });
      }
      const m = /^\/tasks\/([^/]+)(?:\/([a-z]+))?$/.exec(route);
      if (m) return await taskRoute(request, decodeURIComponent(m[1]), m[2] ?? '');
      return refusal(404, 'Not found');
    } catch (err) {
      onerror(err);
      const e = /** @type {any} */ (err);
      return refusal(typeof e?.code === 'number' && e.code === PROTOCOL.errors.invalidParams ? 400 : 500, String(e?.message ?? err));
    }
  };

  /**
   * Node's `http` (req, res): the same handler through the fetch API's Request and Response.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  const node = async (req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const host = req.headers.host ?? 'localhost';
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    let body;
    if (method !== 'GET' && method !== 'HEAD') {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      body = Buffer.concat(chunks);
    }
    const request = new Request(new URL(req.url ?? '/', `http://${host}`), { method, headers, body, signal: controller.signal });
    const response = await fetch(request, req);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null || method === 'HEAD') return void res.end();
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => {}));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // the stream was cancelled: the client went away
    }
    res.end();
  };

  const close = () => {
    for (const end of [...closers]) end();
    feed.stop();
  };
  return { fetch, node, close };
}
