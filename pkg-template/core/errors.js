// The package's error conventions, shared by every module: a coded error as the engine throws
// them, and the refusal of an unknown option. No imports (each module's CommonJS twin needs none).

/**
 * Refuses keys of an adapter's options object that it does not know, in the engine's words
 * (src/wasm/options.rs): a typo must not silently mean "default".
 * @param {object} options
 * @param {readonly string[]} known
 * @param {string} [path] how the caller names the object, e.g. "options." or "redisStorage options."
 * @param {string} [code] the error's `code`
 */
export function refuseUnknownOptions(options, known, path = 'options.', code = 'invalid_options') {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw Object.assign(new TypeError(`${path}${key} is not an option (known here: ${known.join(', ')})`), { code });
  }
}

/** A `TaskEngineError`-shaped error: an `Error` with a `code`. */
export function codedError(code, message) {
  const err = new Error(message);
  err.code = code;
  return err;
}

