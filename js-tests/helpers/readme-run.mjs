// Runs one README example (a file holding the block exactly as written) with the globals of
// readme-env.mjs, then the check for its heading; exits 0 when both pass.
//
//   node readme-run.mjs BLOCK_FILE HEADING        (cwd: a project with mcp-task-core installed)
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, installGlobals } from './readme-env.mjs';

const [file, heading] = process.argv.slice(2);
const record = installGlobals();
const mod = await import(pathToFileURL(path.resolve(file)).href);
await checks[heading]?.(mod, record);
// Examples keep timers and connections (a TTL timer, a Redis client): the check is done.
process.exit(0);
