// Headless Chromium (Debian's /usr/bin/chromium driven by playwright-core) against a static
// server on 127.0.0.1.
//
//   import { withChromium } from './helpers/browser.mjs';
//   await withChromium(async (page, baseUrl) => {
//     await page.goto(`${baseUrl}/pkg/...`);   // <repo>/pkg is mounted at /pkg/
//   }, { files: { '/t.html': '<script type="module">...</script>' }, mounts: { '/pages/': dir } });
//
// Both the server and the browser are always closed, and the temporary --user-data-dir removed.
// Install the browser with `scripts/setup.sh --browser` (`npx playwright install` cannot
// download here). CHROMIUM_PATH overrides the executable.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Flags from shared/TOOLCHAIN.md. The fresh --user-data-dir is given per launch.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};
const mimeOf = (p) => MIME[path.extname(p).toLowerCase()] ?? 'application/octet-stream';

/** Streams one request to `target` (an http://127.0.0.1 origin) and the answer back, unbuffered. */
function proxy(req, res, target) {
  const upstream = http.request(new URL(req.url, target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(String(err));
  });
  req.pipe(upstream);
}

/**
 * Serve `mounts` (URL prefix -> directory) and `files` (URL path -> string|Buffer) on
 * 127.0.0.1 at a random port, and pass `proxies` (URL prefix -> origin) through, streaming
 * (so a page can reach a server of another port as same-origin). Resolves to { baseUrl, close }.
 */
export async function serveStatic({ mounts = {}, files = {}, proxies = {} } = {}) {
  const prefixes = Object.entries(mounts)
    .map(([prefix, dir]) => [prefix.endsWith('/') ? prefix : prefix + '/', path.resolve(dir)])
    .sort((a, b) => b[0].length - a[0].length);
  const server = http.createServer(async (req, res) => {
    const send = (status, body, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    try {
      const via = Object.keys(proxies).find((prefix) => req.url.startsWith(prefix));
      if (via) return proxy(req, res, proxies[via]);
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
      let urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (Object.hasOwn(files, urlPath)) return send(200, files[urlPath], mimeOf(urlPath));
      const hit = prefixes.find(([prefix]) => urlPath.startsWith(prefix) || urlPath + '/' === prefix);
      if (!hit) return send(404, 'not found');
      const [prefix, dir] = hit;
      let file = path.resolve(dir, '.' + path.posix.normalize('/' + urlPath.slice(prefix.length)));
      if (file !== dir && !file.startsWith(dir + path.sep)) return send(403, 'forbidden');
      let stat = await fsp.stat(file).catch(() => null);
      if (stat?.isDirectory()) {
        file = path.join(file, 'index.html');
        stat = await fsp.stat(file).catch(() => null);
      }
      if (!stat?.isFile()) return send(404, 'not found');
      res.writeHead(200, {
        'content-type': mimeOf(file),
        'content-length': stat.size,
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).pipe(res);
    } catch (err) {
      send(500, String(err?.stack ?? err));
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Run `fn(page, baseUrl, { logs })` in a fresh headless Chromium.
 * @param {(page: import('playwright-core').Page, baseUrl: string, ctx: { logs: string[] }) => Promise<any>} fn
 * @param {object} [opts]
 * @param {Record<string,string>} [opts.mounts]  URL prefix -> directory; default { '/pkg/': <repo>/pkg }
 * @param {Record<string,string|Buffer>} [opts.files]  URL path -> inline content (e.g. test pages)
 * @param {Record<string,string>} [opts.proxies]  URL prefix -> origin to pass requests to
 * @param {number} [opts.timeoutMs]  default timeout for page actions (default 30 s)
 * page console messages and uncaught errors are collected in ctx.logs, and appended to
 * the message of an error thrown by fn.
 */
export async function withChromium(fn, opts = {}) {
  const { mounts = { '/pkg/': path.join(REPO_ROOT, 'pkg') }, files = {}, proxies = {}, timeoutMs = 30_000 } = opts;
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run scripts/setup.sh --browser`);
  }
  const server = await serveStatic({ mounts, files, proxies });
  let userDataDir;
  let context;
  const logs = [];
  try {
    userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mcp-task-core-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 60_000,
    });
    context.setDefaultTimeout(timeoutMs);
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (msg) => logs.push(`console.${msg.type()}: ${msg.text()}`));
    page.on('pageerror', (err) => logs.push(`pageerror: ${err?.stack ?? err}`));
    page.on('requestfailed', (req) => logs.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
    try {
      return await fn(page, server.baseUrl, { logs });
    } catch (err) {
      if (logs.length && err instanceof Error) err.message += `\n--- browser log ---\n${logs.join('\n')}`;
      throw err;
    }
  } finally {
    await context?.close().catch(() => {});
    await server.close();
    if (userDataDir) await fsp.rm(userDataDir, { recursive: true, force: true }).catch(() => {});
  }
}
