// The fast path of the Node hosting (TasksExtension.fastPath): 2026-07-28 `tasks/get`,
// `tasks/update` and `tasks/cancel` answered from the engine in the node:http listener, ahead of
// the SDK's Node adapter and of the McpServer the createMcpHandler factory builds per request
// (the runtime owns tasks/*: the McpServer would only hand the request to it); and the
// `tools/call` that creates a task of a tool registered on every server (registerTool(name, …)),
// which such an McpServer would only hand to the runtime's tools/call too.
//
// A request is answered here only when the SDK would serve it and answer it the same: the SDK's
// own classifier (`classifyInboundRequest`: JSON-RPC shape, batch, envelope, header/body
// cross-checks) and Content-Type test (`isJsonContentType`), the body limit, the Mcp-Name rule
// of createMcpHandler's standard-header check, then the same principal, quota key and engine
// call as the SDK path (TasksExtension._taskMethod with the context the SDK would build), the
// same result encoding (resultType, serverInfo), status and content type. Anything else goes to
// the SDK's handler with the body bytes as they came, so it answers as if nothing were here.
import { PROTOCOL } from '../core/protocol.js';

const MODERN_VERSION = PROTOCOL.versions.extension;
const METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
const TOOLS_CALL = 'tools/call';
const EXTENSION_ID = PROTOCOL.extensionId;
const { serverInfo: SERVER_INFO_META, clientCapabilities: CLIENT_CAPABILITIES_META } = PROTOCOL.meta;
// What the fallBack given to tasks._fastToolsCall rejects with: the request goes to the SDK as it came.
const FALL_THROUGH = Symbol('fall through to the SDK');
// The per-request envelope keys the SDK lifts out of params._meta into ctx.mcpReq.envelope.
const ENVELOPE_KEYS = [PROTOCOL.meta.protocolVersion, PROTOCOL.meta.clientInfo, PROTOCOL.meta.clientCapabilities, PROTOCOL.meta.logLevel];
const {
  missingCapability: MISSING_CAPABILITY,
  internalError: INTERNAL_ERROR,
  resourceNotFound: RESOURCE_NOT_FOUND,
  invalidParams: INVALID_PARAMS,
} = PROTOCOL.errors;
// The SDK's default request body limit (4 MiB), toNodeHandler's and createMcpHandler's alike.
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
// Bodies above this go to the SDK unread: a task request is a few hundred bytes.
const FAST_MAX_BODY = 64 * 1024;

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A Node header as the web `Headers.get` the SDK reads reports it: repeated values joined. */
function headerOf(req, name) {
  const value = req.headers[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** RFC 9110 optional whitespace around a field value, as the SDK strips it. */
function stripOws(value) {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * The params a handler sees and what the SDK lifts out of them (its `liftWireOnlyMaterial`): the
 * envelope keys of `_meta`, and the multi round-trip fields `inputResponses` / `requestState`.
 */
function lift(params) {
  const meta = params._meta;
  const rest = { ...params };
  let envelope;
  if (isPlainObject(meta)) {
    const keys = ENVELOPE_KEYS.filter((key) => key in meta);
    if (keys.length > 0) {
      envelope = {};
      const nextMeta = { ...meta };
      for (const key of keys) {
        envelope[key] = meta[key];
        delete nextMeta[key];
      }
      if (Object.keys(nextMeta).length > 0) rest._meta = nextMeta;
      else delete rest._meta;
    }
  }
  const inputResponses = 'inputResponses' in params ? acceptedInputResponses(params.inputResponses) : undefined;
  delete rest.inputResponses;
  delete rest.requestState;
  return { params: rest, envelope, inputResponses };
}

/** The entries of `inputResponses` the SDK hands to a handler: bare response objects only. */
function acceptedInputResponses(inputResponses) {
  const accepted = {};
  if (!isPlainObject(inputResponses)) return accepted;
  for (const [key, entry] of Object.entries(inputResponses)) {
    if (isPlainObject(entry) && !('method' in entry) && !('result' in entry)) accepted[key] = entry;
  }
  return accepted;
}

/**
 * A handler's result as the SDK's 2026-07-28 codec encodes it, or null (the SDK answers -32603).
 * A task tool's call may answer a task (`resultType: 'task'`, the CreateTaskResult).
 */
function encodeResult(result, serverInfo, method) {
  if (!isPlainObject(result)) return null;
  let encoded = result;
  if (encoded.resultType === undefined) encoded = { ...encoded, resultType: 'complete' };
  else if (encoded.resultType !== 'complete' && !(method === TOOLS_CALL && encoded.resultType === 'task')) return null;
  const meta = encoded._meta;
  if (meta === undefined) return { ...encoded, _meta: { [SERVER_INFO_META]: serverInfo } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META] !== undefined) return encoded;
  return { ...encoded, _meta: { ...meta, [SERVER_INFO_META]: serverInfo } };
}

/** A handler's throw as the SDK answers it (its code -32002 is sent as -32602). */
function errorOf(err) {
  const code = Number.isSafeInteger(err?.code) ? err.code : INTERNAL_ERROR;
  const error = { code: code === RESOURCE_NOT_FOUND ? INVALID_PARAMS : code, message: err?.message ?? 'Internal error' };
  if (err?.data !== undefined) error.data = err.data;
  return error;
}

const MAX_VERDICTS = 1024;
// Numbers JSON text can hold but JSON.stringify cannot tell apart (1e400 and null both print null).
const exactNumbers = (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? `\u0000${value}` : value);

/**
 * What the SDK classifier's verdict on a request body depends on (classifyInboundRequest, for a
 * POST: the MCP-Protocol-Version and Mcp-Method headers; the body's members, `jsonrpc`, whether
 * `id` is a string or a safe integer, `method`, and `params._meta`; the rest of `params` is
 * loose), as a string; null when the verdict is not to be memoized.
 */
function verdictKey(body, protocolVersionHeader, mcpMethodHeader) {
  if (!isPlainObject(body) || !isPlainObject(body.params)) return null;
  const id = typeof body.id === 'string' ? 's' : Number.isSafeInteger(body.id) ? 'i' : null;
  if (id === null) return null;
  const meta = '_meta' in body.params ? body.params._meta : '\u0000none';
  const parts = [protocolVersionHeader ?? null, mcpMethodHeader ?? null, Object.keys(body), body.jsonrpc, id, body.method, meta];
  // A replacer makes JSON.stringify several times slower: only a key with a null in it may
  // hide a number JSON.stringify cannot print.
  const key = JSON.stringify(parts);
  return key.includes('null') ? JSON.stringify(parts, exactNumbers) : key;
}

function send(res, status, message) {
  const text = JSON.stringify(message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * `(req, res, parsedBody?)`: the Node listener of `tasks.fastPath(serve, options)`. `sdk` holds
 * the SDK's checks once loaded (null before: everything goes to `serve`).
 */
export function fastPath(tasks, serve, options = {}) {
  if (typeof serve !== 'function') throw new TypeError('fastPath(serve): serve is the toNodeHandler(handler) listener of @modelcontextprotocol/node');
  const known = ['maxRequestBodySize', 'responseMode'];
  const unknown = Object.keys(options ?? {}).find((key) => !known.includes(key));
  if (unknown !== undefined) throw new TypeError(`fastPath: unknown option ${unknown} (known: ${known.join(', ')})`);
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_BODY;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0) throw new RangeError('fastPath: maxRequestBodySize must be a positive number of bytes');
  const maxBody = Math.min(limit, FAST_MAX_BODY);
  // SSE answers (responseMode 'sse') are the SDK's to frame.
  const enabled = options.responseMode !== 'sse';
  let sdk = null;
  // The classifier's verdicts, by what they depend on (see verdictKey): a client's polls differ
  // only in their id and task ID, so the SDK's zod checks run once per client, not per request.
  const verdicts = new Map();
  import('@modelcontextprotocol/server').then(
    (module) => {
      if (typeof module.classifyInboundRequest === 'function' && typeof module.isJsonContentType === 'function') sdk = module;
    },
    () => {},
  );

  /** The SDK's answer, with `body` (a Buffer, when read here) given back as the request's body. */
  const fallThrough = (req, res, body) => {
    if (body === undefined) return serve(req, res);
    // The SDK's Node adapter reads the body by iterating the request: the same bytes, once.
    const replay = Object.create(req, {
      [Symbol.asyncIterator]: {
        value: async function* () {
          if (body.length > 0) yield body;
        },
      },
    });
    return serve(replay, res);
  };

  return (req, res, parsedBody) => {
    if (typeof parsedBody === 'function') parsedBody = undefined; // Express's next
    if (!enabled || sdk === null || parsedBody !== undefined || req.method !== 'POST') return serve(req, res, parsedBody);
    const methodHeader = headerOf(req, 'mcp-method');
    if (methodHeader === undefined) return serve(req, res);
    const method = stripOws(methodHeader);
    // A tools/call only of a tool of every server: its Mcp-Name header names it.
    if (!METHODS.has(method) && !(method === TOOLS_CALL && tasks._fastTool(stripOws(headerOf(req, 'mcp-name') ?? '')) !== undefined)) return serve(req, res);
    const serverInfo = tasks._fastServerInfo();
    if (serverInfo === null) return serve(req, res);
    if (!sdk.isJsonContentType(headerOf(req, 'content-type') ?? null)) return serve(req, res);
    const length = headerOf(req, 'content-length');
    if (length === undefined || !/^\d+$/.test(length) || Number(length) > maxBody) return serve(req, res);

    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      let answer;
      try {
        answer = planOf(req, body);
      } catch {
        answer = null;
      }
      if (answer === null) return fallThrough(req, res, body);
      // The SDK path's own call: no server (tasks/* never reads it; a fast tool is the same on
      // every server), a 2026-07-28 server's state.
      const call =
        answer.method === TOOLS_CALL
          ? tasks._fastToolsCall({ method: answer.method, params: answer.params }, answer.ctx, () => Promise.reject(FALL_THROUGH))
          : tasks._taskMethod(null, { modern: true }, answer.method, answer.params, answer.ctx);
      call.then(
        (result) => {
          const encoded = encodeResult(result, serverInfo, answer.method);
          if (encoded === null) send(res, 200, { jsonrpc: '2.0', id: answer.id, error: { code: INTERNAL_ERROR, message: 'Internal error' } });
          else send(res, 200, { result: encoded, jsonrpc: '2.0', id: answer.id });
        },
        (err) => {
          if (err === FALL_THROUGH) return fallThrough(req, res, body);
          const error = errorOf(err);
          send(res, error.code === MISSING_CAPABILITY ? 400 : 200, { jsonrpc: '2.0', id: answer.id, error });
        },
      ).catch(() => res.destroy()); // an answer that cannot be written: the exchange ends
    });
  };

  /** Whether the SDK's classifier routes `body` to 2026-07-28 serving as a request. */
  function servable(body, protocolVersionHeader, mcpMethodHeader, mcpNameHeader) {
    const key = verdictKey(body, protocolVersionHeader, mcpMethodHeader);
    let verdict = key === null ? undefined : verdicts.get(key);
    if (verdict === undefined) {
      const route = sdk.classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
      verdict = route.kind === 'modern' && route.messageKind === 'request' && route.classification?.revision === MODERN_VERSION;
      if (key !== null) {
        if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
        verdicts.set(key, verdict);
      }
    }
    return verdict;
  }

  /** What the SDK would hand the runtime for this request, or null: the SDK's to answer. */
  function planOf(req, bytes) {
    const body = JSON.parse(bytes.toString('utf8'));
    const protocolVersionHeader = headerOf(req, 'mcp-protocol-version');
    const mcpMethodHeader = headerOf(req, 'mcp-method');
    const mcpNameHeader = headerOf(req, 'mcp-name');
    if (!servable(body, protocolVersionHeader, mcpMethodHeader, mcpNameHeader)) return null;
    const { method, params, id } = body;
    if (!isPlainObject(params) || mcpNameHeader === undefined || protocolVersionHeader === undefined) return null;
    // createMcpHandler's standard-header rung: both headers present, Mcp-Name mirrors the task ID
    // or the tool's name (a Base64 sentinel form is left to the SDK to decode).
    const named = method === TOOLS_CALL ? params.name : params.taskId;
    if (typeof named !== 'string' || stripOws(mcpNameHeader) !== named || named.startsWith('=?')) return null;
    if (method === TOOLS_CALL) {
      // A task of a fast tool, for a client that declared the extension: anything else (a
      // plain call, the SDK's refusal of malformed arguments) is the SDK's.
      if (tasks._fastTool(named) === undefined || !(params.arguments === undefined || isPlainObject(params.arguments))) return null;
      if (!isPlainObject(params._meta?.[CLIENT_CAPABILITIES_META]?.extensions?.[EXTENSION_ID])) return null;
    } else if (!METHODS.has(method)) return null;
    const lifted = lift(params);
    const mcpReq = { id, method, _meta: lifted.params._meta, envelope: lifted.envelope };
    if (lifted.inputResponses !== undefined) mcpReq.inputResponses = lifted.inputResponses;
    // The context the SDK builds for the request (what the principal and quota key are read from).
    const http = { req: { headers: { get: (name) => headerOf(req, name.toLowerCase()) ?? null } } };
    if (req.auth) http.authInfo = req.auth;
    return { id, method, params: lifted.params, ctx: { sessionId: undefined, mcpReq, http } };
  }
}
