// The Node entry points' source of random bytes (task IDs, cursor keys): the kernel's
// CSPRNG read from /dev/urandom. `crypto.getRandomValues` draws from the same generator,
// but its first use loads `node:crypto`, which costs more start-up time than the engine's
// own. Where /dev/urandom cannot be read (Windows), `crypto.getRandomValues` is used.
import { closeSync, openSync, readSync } from 'node:fs';

let urandom = true;

/**
 * Fills all of `bytes` with random bytes.
 * @param {Uint8Array} bytes
 */
export function fillRandom(bytes) {
  if (urandom) {
    let fd;
    try {
      fd = openSync('/dev/urandom', 'r');
    } catch {
      urandom = false;
    }
    if (fd !== undefined) {
      try {
        for (let done = 0; done < bytes.length; ) {
          const read = readSync(fd, bytes, done, bytes.length - done, null);
          if (read <= 0) throw new Error('/dev/urandom returned no bytes');
          done += read;
        }
        return;
      } finally {
        closeSync(fd);
      }
    }
  }
  globalThis.crypto.getRandomValues(bytes);
}
