// `TaskClient`: a `TaskRequestor` run over a transport of the official MCP SDK (1.x
// `@modelcontextprotocol/sdk`, 2.x `@modelcontextprotocol/client`: Streamable HTTP, stdio, in
// memory; all share `{ start, send, close, onmessage, onclose, onerror }`). It owns the loop:
// feeds what arrives, sends what the requestor outputs, wakes it at `nextDeadline`, and turns
// each call's outputs into a Promise and an async iterator. Glue only: which status ends a
// task, when to poll and what to retry all come from the requestor's outputs.

const LATEST = '2026-07-28';
const LEGACY = '2025-11-25';
/** setTimeout takes at most 2^31 - 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;
/** Outputs after which a call has nothing more to say. */
const ENDS_A_CALL = new Set(['finished', 'plainResponse', 'callRefused', 'lost']);

/** An Error for a JSON-RPC error object, carrying its `code` and `data`. */
function rpcError(error, extra) {
  const e = new Error(error?.message ?? 'Unknown JSON-RPC error');
  e.name = 'McpError';
  e.code = error?.code;
  e.data = error?.data;
  return Object.assign(e, extra);
}

function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error || (typeof DOMException === 'function' && reason instanceof DOMException)) return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}

/** A push queue read as an async iterator; `end(error?)` finishes it. */
class EventQueue {
  #items = [];
  #waiting = null;
  #ended = false;
  #error = null;

  push(item) {
    if (this.#ended) return;
    if (this.#waiting) {
      const { resolve } = this.#waiting;
      this.#waiting = null;
      resolve({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  end(error = null) {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    if (this.#waiting) {
      const { resolve, reject } = this.#waiting;
      this.#waiting = null;
      if (error) reject(error);
      else resolve({ value: undefined, done: true });
    }
  }

  next() {
    if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift(), done: false });
    if (this.#ended) return this.#error ? Promise.reject(this.#error) : Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }
}

export function taskClientClass(TaskRequestor) {
  return class TaskClient {
    #transport;
    #requestor;
    #options;
    #now;
    /** callId -> the state of a call still awaited. */
    #calls = new Map();
    /** Progress token -> call, for progress on calls the receiver runs plainly. */
    #progress = new Map();
    /** Our own handshake requests: id -> { resolve, reject }. */
    #handshake = new Map();
    #handshakeSeq = 0;
    #progressSeq = 0;
    #timer = null;
    #closed = null;
    #serverInfo = null;

    /**
     * @param transport an SDK `Transport`, not started
     * @param options `{ requestor?: TaskRequestorOptions, protocolVersion?: 'auto' | '2025-11-25' |
     *   '2026-07-28', clientInfo?, capabilities?, handshakeTimeoutMs?, onRequest?, onMessage?, onError? }`
     */
    constructor(transport, options = {}) {
      this.#transport = transport;
      this.#options = options;
      this.#requestor = new TaskRequestor(options.requestor);
      this.#now = options.requestor?.now ?? Date.now;
      transport.onmessage = (message) => this.#receive(message);
      transport.onclose = () => this.#lost(new Error('Connection closed: the transport closed'));
      transport.onerror = (error) => this.#options.onError?.(error);
    }

    /** The `TaskRequestor` this client drives (for `tracked()`, `exportState()`, ...). */
    get requestor() {
      return this.#requestor;
    }

    /** The receiver's `server/discover` or `initialize` result, once connected. */
    get serverInfo() {
      return this.#serverInfo;
    }

    /** Starts the transport and performs the handshake; resolves with the dialect spoken. */
    async connect() {
      await this.#transport.start();
      const wanted = this.#options.protocolVersion ?? 'auto';
      const clientInfo = this.#options.clientInfo ?? { name: 'mcp-task-core', version: '0' };
      const capabilities = this.#options.capabilities ?? {};
      let info = null;
      if (wanted !== LEGACY) {
        const meta = {
          'io.modelcontextprotocol/protocolVersion': LATEST,
          'io.modelcontextprotocol/clientInfo': clientInfo,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        };
        try {
          info = await this.#request('server/discover', { _meta: meta });
          if (!(info?.supportedVersions ?? []).includes(LATEST)) info = null;
        } catch (error) {
          if (wanted === LATEST || this.#closed) throw error;
        }
        if (info === null && wanted === LATEST) throw new Error(`The server does not support protocol ${LATEST}`);
      }
      if (info === null) {
        info = await this.#request('initialize', { protocolVersion: LEGACY, capabilities, clientInfo });
        this.#transport.setProtocolVersion?.(info.protocolVersion);
        await this.#transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      this.#serverInfo = info;
      return this.#requestor.useServerInfo(info);
    }

    /** Sends `tools/call`; resolves with `{ result, callId, taskId, status }` (see requestor.d.ts). */
    callTool(name, args, options = {}) {
      return this.request('tools/call', { name, arguments: args ?? {} }, options);
    }

    /** Any request the requestor may send, with the options of `callTool`. */
    request(method, params, options = {}) {
      return new Promise((resolve, reject) => this.#start(method, params, options, { resolve, reject }));
    }

    /** `tools/call` as an async iterator of the call's events, ending with its last one. */
    callToolStream(name, args, options = {}) {
      return this.requestStream('tools/call', { name, arguments: args ?? {} }, options);
    }

    /** Any request as an async iterator of its events (a rejection ends it with that error). */
    requestStream(method, params, options = {}) {
      const queue = new EventQueue();
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        this.#start(method, params, options, { resolve: () => queue.end(), reject: (e) => queue.end(e), queue });
      };
      return {
        [Symbol.asyncIterator]() {
          return this;
        },
        next: () => {
          start();
          return queue.next();
        },
        return: async () => {
          queue.end();
          return { value: undefined, done: true };
        },
      };
    }

    /** Answers an `inputRequest` event (when no `onInputRequest` handler did). */
    respond(requestId, result) {
      this.#requestor.respond(requestId, result);
      this.#pump();
    }

    /** Asks the receiver to cancel a task this client tracks. */
    cancel(taskId) {
      const id = this.#requestor.cancel(taskId);
      this.#pump();
      return id;
    }

    /** Stops the timers and closes the transport; calls still open are rejected. */
    async close() {
      this.#lost(new Error('Connection closed: the client was closed'));
      await this.#transport.close();
    }

    #start(method, params, options, sink) {
      if (this.#closed) return sink.reject(this.#closed);
      const { task, signal, onProgress, onInputRequest, onEvent } = options;
      if (signal?.aborted) return sink.reject(abortError(signal));
      let progressToken = options.progressToken;
      if (progressToken === undefined && onProgress) progressToken = `mcp-task-core-progress-${++this.#progressSeq}`;
      let callId;
      try {
        callId = this.#requestor.call(method, params, { task, progressToken });
      } catch (error) {
        return sink.reject(error);
      }
      const state = { callId, taskId: null, sink, onProgress, onInputRequest, onEvent, progressToken, aborted: false, unlisten: null };
      this.#calls.set(callId, state);
      if (progressToken !== undefined) this.#progress.set(JSON.stringify(progressToken), state);
      if (signal) {
        const onAbort = () => this.#abort(state, signal);
        signal.addEventListener('abort', onAbort, { once: true });
        state.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      this.#pump();
    }

    #abort(state, signal) {
      if (state.aborted) return;
      state.aborted = true;
      // The task goes on at the receiver unless cancelled: cancel it (now, or once created).
      if (state.taskId !== null) this.#cancelQuietly(state.taskId);
      this.#settle(state, null, abortError(signal), { keepRouting: state.taskId === null });
    }

    #cancelQuietly(taskId) {
      try {
        this.#requestor.cancel(taskId);
      } catch {
        // Already ended: nothing to cancel.
      }
      this.#pump();
    }

    /** Ends a call for its caller; `keepRouting` keeps its state to cancel a task created later. */
    #settle(state, value, error, { keepRouting = false } = {}) {
      if (state.settled) return;
      state.settled = true;
      state.unlisten?.();
      if (!keepRouting) this.#forgetCall(state);
      if (error) state.sink.reject(error);
      else state.sink.resolve(value);
    }

    #forgetCall(state) {
      this.#calls.delete(state.callId);
      if (state.progressToken !== undefined) this.#progress.delete(JSON.stringify(state.progressToken));
    }

    #receive(message) {
      const id = message?.id;
      if (id !== undefined && message.method === undefined && this.#handshake.has(id)) {
        const { resolve, reject } = this.#handshake.get(id);
        this.#handshake.delete(id);
        if (message.error) reject(rpcError(message.error));
        else resolve(message.result);
        return;
      }
      this.#requestor.handle(message);
      this.#pump();
    }

    /** One request of the handshake (before the requestor has anything to send). */
    #request(method, params) {
      const id = `mcp-task-core-client:${++this.#handshakeSeq}`;
      const timeoutMs = this.#options.handshakeTimeoutMs ?? 30_000;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          this.#handshake.delete(id);
          reject(rpcError({ code: -32001, message: `Request timed out: no answer to ${method} within ${timeoutMs} ms` }));
        }, timeoutMs);
        const done = (f) => (v) => {
          clearTimeout(timer);
          f(v);
        };
        this.#handshake.set(id, { resolve: done(resolve), reject: done(reject) });
        this.#transport.send({ jsonrpc: '2.0', id, method, params }).catch((error) => {
          this.#handshake.delete(id);
          done(reject)(error);
        });
      });
    }

    #pump() {
      for (let out; (out = this.#requestor.pollOutput()) !== null; ) {
        if (out.kind === 'send') this.#send(out);
        else this.#dispatch(out);
      }
      this.#schedule();
    }

    #send(out) {
      if (this.#closed) return;
      const options = out.mcpName === null ? undefined : { headers: { 'mcp-name': out.mcpName } };
      Promise.resolve()
        .then(() => this.#transport.send(out.message, options))
        .catch((error) => {
          this.#options.onError?.(error);
          // The requestor decides what a lost request means (a failed call, a poll to retry).
          if (out.requestId !== null && !this.#closed) {
            this.#requestor.requestFailed(out.requestId);
            this.#pump();
          }
        });
    }

    #schedule() {
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      const due = this.#requestor.nextDeadline();
      if (due === null || this.#closed) return;
      const wait = Math.min(Math.max(due - this.#now(), 0), MAX_TIMER_MS);
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#requestor.handleTimeout();
        this.#pump();
      }, wait);
    }

    #dispatch(event) {
      const state = event.callId == null ? null : this.#calls.get(event.callId);
      if (state === undefined || state === null) return this.#unrouted(event);
      if (event.kind === 'created') {
        state.taskId = event.taskId;
        if (state.aborted) return this.#cancelQuietly(event.taskId);
      }
      if (state.settled) {
        // An aborted call: its remaining events only end it.
        if (ENDS_A_CALL.has(event.kind)) this.#forgetCall(state);
        return;
      }
      state.onEvent?.(event);
      state.sink.queue?.push(event);
      if (event.kind === 'progress') state.onProgress?.(event.notification.params);
      if (event.kind === 'inputRequest' && state.onInputRequest) this.#answer(state, event);
      if (ENDS_A_CALL.has(event.kind)) this.#end(state, event);
    }

    /** The outcome of a call, from its last event. */
    #end(state, event) {
      const about = { callId: state.callId, taskId: state.taskId, status: event.status ?? null };
      if (event.kind === 'lost') return this.#settle(state, null, rpcError(event.error, about));
      const response = event.response;
      if (response.error) return this.#settle(state, null, rpcError(response.error, { ...about, response }));
      this.#settle(state, { result: response.result, ...about });
    }

    #answer(state, event) {
      Promise.resolve()
        .then(() => state.onInputRequest(event.request, { callId: state.callId, taskId: event.taskId, requestId: event.requestId }))
        .then(
          (result) => this.#requestor.respond(event.requestId, result),
          (error) => {
            try {
              this.#requestor.respondError(event.requestId, { code: -32603, message: String(error?.message ?? error) });
            } catch {
              throw error; // The dialect takes results only: the handler's error ends the call.
            }
          },
        )
        .catch((error) => {
          // No answer could be sent: the call cannot go on as asked.
          if (state.taskId !== null) this.#cancelQuietly(state.taskId);
          this.#settle(state, null, error, { keepRouting: true });
        })
        .finally(() => this.#pump());
    }

    /** Events for no call of ours: progress of a plain call, requests and notifications of the receiver. */
    #unrouted(event) {
      if (event.kind !== 'forward') return this.#options.onEvent?.(event);
      const message = event.message;
      if (message?.method === 'notifications/progress') {
        const state = this.#progress.get(JSON.stringify(message.params?.progressToken));
        // Progress that came before the task was known (or of a plain call): routed by its token.
        if (state) return this.#dispatch({ kind: 'progress', callId: state.callId, taskId: state.taskId, notification: message });
      }
      this.#options.onMessage?.(message, event.text);
      if (message?.method !== undefined && message.id !== undefined) this.#answerRequest(message);
    }

    /** Answers a request of the receiver that no task asked: `onRequest`, else ping, else -32601. */
    #answerRequest(message) {
      const reply = (body) => this.#transport.send({ jsonrpc: '2.0', id: message.id, ...body }).catch((e) => this.#options.onError?.(e));
      Promise.resolve()
        .then(() => {
          if (this.#options.onRequest) return this.#options.onRequest(message);
          if (message.method === 'ping') return {};
          throw rpcError({ code: -32601, message: `Method not found: ${message.method}` });
        })
        .then(
          (result) => reply({ result }),
          (error) => reply({ error: { code: error?.code ?? -32603, message: String(error?.message ?? error) } }),
        );
    }

    /** The transport is gone: every call still open ends with a clear rejection. */
    #lost(error) {
      if (this.#closed) return;
      this.#closed = error;
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      for (const { reject } of this.#handshake.values()) reject(error);
      this.#handshake.clear();
      for (const state of [...this.#calls.values()]) {
        const e = new Error(`${error.message} while call ${JSON.stringify(state.callId)} was open${state.taskId ? ` (task ${state.taskId})` : ''}`);
        Object.assign(e, { name: 'McpError', code: -32000, callId: state.callId, taskId: state.taskId });
        this.#forgetCall(state);
        this.#settle(state, null, e);
      }
    }
  };
}
