// `TaskClient`: a `TaskRequestor` run over a transport of the official MCP SDK (1.x
// `@modelcontextprotocol/sdk`, 2.x `@modelcontextprotocol/client`: Streamable HTTP, stdio, in
// memory; all share `{ start, send, close, onmessage, onclose, onerror }`). It owns the loop:
// feeds what arrives, sends what the requestor outputs, wakes it at `nextDeadline`, and turns
// each call's outputs into a Promise and an async iterator. Glue only: which status ends a
// task, when to poll, what to retry and when to ask for pushed status all come from the
// requestor's outputs; this file only gives a listen request its own stream and closes it.

import { refuseUnknownOptions } from '../core/errors.js';
import { PROTOCOL } from '../core/protocol.js';

const { extension: LATEST, legacy: LEGACY } = PROTOCOL.versions;
/** setTimeout takes at most 2^31 - 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;
/** Outputs after which a call has nothing more to say. */
const ENDS_A_CALL = new Set(['finished', 'plainResponse', 'callRefused', 'lost']);
/** JSON-RPC "Method not found": this client has nothing to answer the receiver's request with. */
const METHOD_NOT_FOUND = PROTOCOL.errors.methodNotFound;
/** The keys of `new TaskClient(transport, options)` and of a call's options (requestor.d.ts). */
const CLIENT_OPTIONS = ['requestor', 'protocolVersion', 'clientInfo', 'capabilities', 'handshakeTimeoutMs', 'onRequest', 'onMessage', 'onEvent', 'onError'];
const CALL_OPTIONS = ['task', 'progressToken', 'signal', 'onProgress', 'onStatus', 'onInputRequest', 'onEvent'];
/** Outputs that carry a task's status (`task`): its creation, and each change. */
const CARRIES_STATUS = new Set(['created', 'status']);

/** Refuses what `options` cannot mean: a typo must not silently mean "default" (or "no handler"). */
function checkOptions(options, known, where, code) {
  const fail = (message) => {
    const error = new TypeError(message);
    error.code = code;
    throw error;
  };
  if (options === null || typeof options !== 'object') fail(`${where}options must be an object`);
  refuseUnknownOptions(options, known, `${where}options.`, code);
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (key.startsWith('on') && value !== undefined && typeof value !== 'function') fail(`${where}options.${key} must be a function`);
  }
}

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
    /** Listen requests open (the requestor's pushes): request id (JSON) -> AbortController of their stream. */
    #listens = new Map();

    /**
     * @param transport an SDK `Transport`, not started
     * @param options `{ requestor?: TaskRequestorOptions, protocolVersion?: 'auto' | '2025-11-25' |
     *   '2026-07-28', clientInfo?, capabilities?, handshakeTimeoutMs?, onRequest?, onMessage?, onEvent?, onError? }`;
     *   an unknown key throws a TypeError that lists the known ones
     */
    constructor(transport, options = {}) {
      checkOptions(options, CLIENT_OPTIONS, '', 'invalid_options');
      const invalid = (message) => Object.assign(new TypeError(message), { code: 'invalid_options' });
      const { protocolVersion = 'auto', requestor } = options;
      if (![LATEST, LEGACY, 'auto'].includes(protocolVersion)) throw invalid(`options.protocolVersion must be 'auto', '${LEGACY}' or '${LATEST}'`);
      for (const key of ['requestor', 'capabilities', 'clientInfo']) {
        const value = options[key];
        if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) throw invalid(`options.${key} must be an object`);
      }
      for (const [key, own] of [['clientCapabilities', 'capabilities'], ['clientInfo', 'clientInfo']]) {
        if (requestor?.[key] !== undefined) throw invalid(`options.requestor.${key}: set options.${own} instead (the handshake declares it too)`);
      }
      this.#transport = transport;
      this.#options = options;
      // 2026-07-28 declares the client on every request, not once: the requestor carries it. Pushed
      // status is asked for unless the caller says otherwise (polling goes on beside it).
      this.#requestor = new TaskRequestor({ listen: true, ...requestor, clientCapabilities: this.#capabilities(), clientInfo: this.#clientInfo() });
      // The requestor's clock when it was given one, else Date.now read at each use (fake timers).
      this.#now = requestor?.now ?? (() => Date.now());
      transport.onmessage = (message) => this.#receive(message);
      transport.onclose = () => this.#lost(new Error('Connection closed: the transport closed'));
      // Once closed, the transport's aborted requests are the close itself, not errors.
      transport.onerror = (error) => this.#closed || this.#transportError(error);
    }

    #capabilities() {
      return this.#options.capabilities ?? {};
    }

    #clientInfo() {
      return this.#options.clientInfo ?? { name: 'mcp-task-core', version: '0' };
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
      const clientInfo = this.#clientInfo();
      const capabilities = this.#capabilities();
      let info = null;
      if (wanted !== LEGACY) {
        const meta = {
          [PROTOCOL.meta.protocolVersion]: LATEST,
          [PROTOCOL.meta.clientInfo]: clientInfo,
          [PROTOCOL.meta.clientCapabilities]: capabilities,
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
      return new Promise((resolve, reject) => {
        checkOptions(options, CALL_OPTIONS, 'TaskClient call ', 'invalid_argument');
        this.#start(method, params, options, { resolve, reject });
      });
    }

    /** `tools/call` as an async iterator of the call's events, ending with its last one. */
    callToolStream(name, args, options = {}) {
      return this.requestStream('tools/call', { name, arguments: args ?? {} }, options);
    }

    /**
     * Any request as an async iterator of its events (a rejection ends it with that error).
     * Leaving the loop early (`break`, `return`, a throw: the iterator's `return()`) gives the
     * call up: its task is cancelled, as with an aborted signal.
     */
    requestStream(method, params, options = {}) {
      checkOptions(options, CALL_OPTIONS, 'TaskClient call ', 'invalid_argument');
      const queue = new EventQueue();
      let started = false;
      let state;
      const start = () => {
        if (started) return;
        started = true;
        state = this.#start(method, params, options, { resolve: () => queue.end(), reject: (e) => queue.end(e), queue });
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
          if (state) this.#giveUp(state, null);
          queue.end();
          return { value: undefined, done: true };
        },
      };
    }

    /** Answers an `inputRequest` event of a stream (`callToolStream`, `requestStream`). */
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
      const { task, signal, onProgress, onStatus, onInputRequest, onEvent } = options;
      if (signal?.aborted) return sink.reject(abortError(signal));
      let progressToken = options.progressToken;
      if (progressToken === undefined && onProgress) progressToken = `mcp-task-core-progress-${++this.#progressSeq}`;
      let callId;
      try {
        callId = this.#requestor.call(method, params, { task, progressToken });
      } catch (error) {
        return sink.reject(error);
      }
      const state = { callId, taskId: null, sink, onProgress, onStatus, onInputRequest, onEvent, progressToken, givenUp: false, unlisten: null };
      this.#calls.set(callId, state);
      if (progressToken !== undefined) this.#progress.set(JSON.stringify(progressToken), state);
      if (signal) {
        const onAbort = () => this.#giveUp(state, abortError(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        state.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      this.#pump();
      return state;
    }

    /**
     * The caller no longer waits for a call (an aborted signal, a throw in its callback, a stream
     * left early, input it cannot give): it ends with `error` (none: a stream's plain end), and
     * its task, which would go on at the receiver, is cancelled now or once created.
     */
    #giveUp(state, error) {
      if (state.settled) return;
      state.givenUp = true;
      if (state.taskId !== null) this.#cancelQuietly(state.taskId);
      this.#settle(state, null, error, { keepRouting: state.taskId === null });
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
      // The answer to a listen request is the end of its stream.
      if (id !== undefined && message.method === undefined) this.#listens.delete(JSON.stringify(id));
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
          reject(rpcError({ code: PROTOCOL.errors.requestTimeout, message: `Request timed out: no answer to ${method} within ${timeoutMs} ms` }));
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
      let options = out.mcpName === null ? undefined : { headers: { 'mcp-name': out.mcpName } };
      const method = out.message?.method;
      let stream = null;
      if (method === 'subscriptions/listen') {
        // A long-lived request with its own stream where the transport has one (Streamable HTTP).
        const key = JSON.stringify(out.requestId);
        stream = new AbortController();
        this.#listens.set(key, stream);
        const ended = () => {
          if (this.#listens.get(key) !== stream) return;
          this.#listens.delete(key);
          // Ended without its answer: the requestor stops counting on pushes (polling goes on).
          if (!this.#closed && this.#requestor.requestFailed(out.requestId)) this.#pump();
        };
        options = { ...options, requestSignal: stream.signal, onRequestStreamEnd: ended };
      } else if (method === 'notifications/cancelled') {
        const key = JSON.stringify(out.message.params?.requestId);
        const listen = this.#listens.get(key);
        if (listen !== undefined) {
          this.#listens.delete(key);
          listen.abort();
          // Closing a Streamable HTTP stream is the cancellation; stdio needs the notification.
          if (this.#transport.hasPerRequestStream === true) return;
        }
      }
      Promise.resolve()
        .then(() => this.#transport.send(out.message, options))
        .catch((error) => {
          // A send the close aborted is no error: the close has ended every call; nor is a listen
          // stream closed on purpose.
          if (this.#closed || stream?.signal.aborted) return;
          this.#transportError(error);
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
        if (state.givenUp) return this.#cancelQuietly(event.taskId);
      }
      if (state.settled) {
        // A call given up: its remaining events only end it.
        if (ENDS_A_CALL.has(event.kind)) this.#forgetCall(state);
        return;
      }
      try {
        state.onEvent?.(event);
        state.sink.queue?.push(event);
        if (event.kind === 'progress') state.onProgress?.(event.notification.params);
        if (CARRIES_STATUS.has(event.kind)) state.onStatus?.(event.task, { callId: state.callId, taskId: event.taskId });
      } catch (error) {
        // The caller's own callback failed: the call cannot go on as asked; the caller hears why.
        return this.#giveUp(state, error);
      }
      if (event.kind === 'inputRequest') {
        if (state.onInputRequest) this.#answer(state, event);
        // A stream's reader answers with respond(); a Promise has no one to ask.
        else if (!state.sink.queue) this.#refuseInput(state, event);
      }
      if (ENDS_A_CALL.has(event.kind)) this.#end(state, event);
    }

    /**
     * The receiver asks for input a call has no `onInputRequest` for: its request is refused
     * (2025-11-25: a -32601 error answer, so the tool hears why; the tasks extension takes results
     * only), and the call rejects with -32601 and its task is cancelled, rather than wait for an
     * answer that cannot come.
     */
    #refuseInput(state, event) {
      const method = event.request?.method ?? 'input';
      const why = `the call has no onInputRequest handler for the receiver's ${method}`;
      try {
        this.#requestor.respondError(event.requestId, { code: METHOD_NOT_FOUND, message: `Method not found: ${why}` });
      } catch {
        // The tasks extension: the cancel below ends the receiver's wait.
      }
      const message =
        `Task ${event.taskId} asked for input (${method}), but ${why}: pass onInputRequest to callTool or request, ` +
        'or read the call with callToolStream and answer its inputRequest events with respond(). The task was cancelled.';
      const about = { callId: state.callId, taskId: event.taskId, status: 'input_required', request: event.request };
      this.#giveUp(state, rpcError({ code: METHOD_NOT_FOUND, message }, about));
    }

    /** A transport error: to `onError` (the calls it affects hear of it themselves). */
    #transportError(error) {
      if (this.#options.onError) this.#report(error);
    }

    /** A failure no caller awaits (a throw in a client-wide callback): `onError`, else the console. */
    #report(error) {
      try {
        if (this.#options.onError) return void this.#options.onError(error);
      } catch (thrown) {
        error = thrown;
      }
      console.error('mcp-task-core TaskClient:', error);
    }

    /** Runs a client-wide callback; its throw is reported, never lost in the loop. */
    #callback(name, ...args) {
      try {
        this.#options[name]?.(...args);
      } catch (error) {
        this.#report(error);
      }
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
              this.#requestor.respondError(event.requestId, { code: PROTOCOL.errors.internalError, message: String(error?.message ?? error) });
            } catch {
              throw error; // The dialect takes results only: the handler's error ends the call.
            }
          },
        )
        // No answer could be sent: the call cannot go on as asked.
        .catch((error) => this.#giveUp(state, error))
        .finally(() => this.#pump());
    }

    /** Events for no call of ours: progress of a plain call, requests and notifications of the receiver. */
    #unrouted(event) {
      if (event.kind !== 'forward') return this.#callback('onEvent', event);
      const message = event.message;
      if (message?.method === 'notifications/progress') {
        const state = this.#progress.get(JSON.stringify(message.params?.progressToken));
        // Progress that came before the task was known (or of a plain call): routed by its token.
        if (state) return this.#dispatch({ kind: 'progress', callId: state.callId, taskId: state.taskId, notification: message });
      }
      this.#callback('onMessage', message, event.text);
      if (message?.method !== undefined && message.id !== undefined) this.#answerRequest(message);
    }

    /** Answers a request of the receiver that no task asked: `onRequest`, else ping, else -32601. */
    #answerRequest(message) {
      const reply = (body) => this.#transport.send({ jsonrpc: '2.0', id: message.id, ...body }).catch((e) => this.#closed || this.#transportError(e));
      Promise.resolve()
        .then(() => {
          if (this.#options.onRequest) return this.#options.onRequest(message);
          if (message.method === 'ping') return {};
          throw rpcError({ code: METHOD_NOT_FOUND, message: `Method not found: ${message.method}` });
        })
        .then(
          (result) => reply({ result }),
          (error) => reply({ error: { code: error?.code ?? PROTOCOL.errors.internalError, message: String(error?.message ?? error) } }),
        );
    }

    /** The transport is gone: every call still open ends with a clear rejection. */
    #lost(error) {
      if (this.#closed) return;
      this.#closed = error;
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      this.#listens.clear();
      for (const { reject } of this.#handshake.values()) reject(error);
      this.#handshake.clear();
      for (const state of [...this.#calls.values()]) {
        const e = new Error(`${error.message} while call ${JSON.stringify(state.callId)} was open${state.taskId ? ` (task ${state.taskId})` : ''}`);
        Object.assign(e, { name: 'McpError', code: PROTOCOL.errors.connectionClosed, callId: state.callId, taskId: state.taskId });
        this.#forgetCall(state);
        this.#settle(state, null, e);
      }
    }
  };
}
