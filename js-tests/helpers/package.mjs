// The built package as a user gets it: `npm pack` of pkg/ unpacked into a scratch project's
// node_modules/mcp-task-core. Tests import it through that project, so the exports map,
// the `files` list and the entry points are what is under test.
//
//   import { installPackage } from './helpers/package.mjs';
//   const pkg = await installPackage();          // once per test file (before())
//   const mod = await pkg.importEsm();           // import 'mcp-task-core' from the project
//   const cjs = pkg.requireCjs();                // require('mcp-task-core') from the project
//   pkg.cleanup();                               // after()
//
// Env: PKG_DIR overrides <repo>/pkg.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const JS_TESTS_DIR = path.join(REPO_ROOT, 'js-tests');
export const PKG_DIR = process.env.PKG_DIR || path.join(REPO_ROOT, 'pkg');
export const PACKAGE_NAME = 'mcp-task-core';

/**
 * Packs PKG_DIR and unpacks it into `<tmp>/node_modules/mcp-task-core`.
 * @param {{ prefix?: string }} [opts]
 * @returns {{ dir: string, installed: string, version: string, packageJson: any, files: string[],
 *             importEsm: () => Promise<any>, requireCjs: () => any, cleanup: () => void }}
 */
export function installPackage({ prefix = 'mcp-task-core-test-' } = {}) {
  assert.ok(
    fs.existsSync(path.join(PKG_DIR, 'package.json')),
    `${PKG_DIR} missing: run scripts/build-pkg.sh (or scripts/test-js.sh, which builds first)`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    const out = execFileSync('npm', ['pack', PKG_DIR, '--pack-destination', dir, '--json', '--silent'], {
      encoding: 'utf8',
    });
    const [{ filename, files }] = JSON.parse(out);
    const installed = path.join(dir, 'node_modules', PACKAGE_NAME);
    fs.mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', installed, '--strip-components=1']);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const packageJson = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    const probe = path.join(dir, 'probe.mjs');
    fs.writeFileSync(probe, `export * from '${PACKAGE_NAME}';\n`);
    return {
      dir,
      installed,
      version: packageJson.version,
      packageJson,
      files: files.map((f) => f.path),
      importEsm: () => import(pathToFileURL(probe).href),
      requireCjs: () => createRequire(path.join(dir, 'probe.cjs'))(PACKAGE_NAME),
      cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
