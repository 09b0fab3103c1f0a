// Makes a bundled wasm-bindgen glue (scripts/bundle-glue.mjs) able to make fresh instances of
// its wasm: the glue's body (classes, heap, caches, snippet state) moves into one function, run
// once for the module's own exports and again by `freshBindings()`, which instantiates the
// compiled WebAssembly.Module already loaded in a new Instance with a linear memory of its own.
// A wasm memory never shrinks; a fresh instance starts small (the receiver runtime moves its
// tasks into one after a burst, see pkg-template/runtime.js).
//
// Every rewrite must match exactly once, so a wasm-bindgen upgrade that changes the glue's shape
// stops the build here instead of shipping a glue that shares state between instances.

/** The text with `from` replaced by `to`; `from` must occur exactly once. */
function once(text, from, to, what) {
  const n = text.split(from).length - 1;
  if (n !== 1) throw new Error(`${what}: expected one ${JSON.stringify(from)}, found ${n}`);
  return text.replace(from, () => to);
}

/** The top-level `import` lines (esbuild prints each on one line), and the text without them. */
function takeImports(text) {
  const imports = [];
  const rest = text.replace(/^import [^\n]*;\n/gm, (line) => {
    imports.push(line);
    return '';
  });
  if (/^import\b/m.test(rest)) throw new Error('an import statement spans several lines');
  return { imports: imports.join(''), rest };
}

/** `export { a, b as c };` at the end: the text before it and [local, exported] name pairs. */
function takeExports(text, what) {
  const match = /\nexport \{([^}]*)\};\s*$/.exec(text);
  if (match === null) throw new Error(`${what}: no export list at the end`);
  const names = match[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [local, exported = local] = s.split(/\s+as\s+/);
      return [local, exported];
    });
  return { body: text.slice(0, match.index + 1), names };
}

// Shared by the three forms: the random source follows every instance made here (the glue's
// setRandomSource is per instance: the wasm reads it from its own module state).
const RANDOM_SOURCE = `
// Each fresh instance by its TextTaskEngine class (alive while any of its engines is), held
// weakly, and the class -> its instance's setRandomSource (an ephemeron: no leak).
var instances = [];
var setters = new WeakMap();
var randomSource;
function setRandomSource(fill) {
  randomSource = fill;
  instances = instances.filter((ref) => ref.deref() !== undefined);
  for (const ref of instances) setters.get(ref.deref())?.(fill);
  first.setRandomSource(fill);
}
/**
 * A fresh instance of this glue's wasm: { TextTaskEngine, setRandomSource, memory }, with its own
 * linear memory and the random source set here. Needs the module loaded (on the web: init()).
 */
function freshBindings() {
  const module = first.module;
  if (module === undefined) throw new Error('freshBindings(): the wasm module is not loaded yet (call init() first)');
  const fresh = bindings(module);
  if (randomSource !== undefined) fresh.setRandomSource(randomSource);
  if (typeof WeakRef === 'function') {
    instances.push(new WeakRef(fresh.TextTaskEngine));
    setters.set(fresh.TextTaskEngine, fresh.setRandomSource);
  }
  return fresh;
}
`;

/**
 * The reinstantiable form of a bundled glue.
 * @param {string} text  the bundled glue
 * @param {'esm-node' | 'cjs-node' | 'web'} form
 * @param {string} what  its name, for errors
 */
export function reinstantiable(text, form, what) {
  if (form === 'cjs-node') {
    if (/\bmodule\.exports\b/.test(text)) throw new Error(`${what}: the CommonJS glue assigns module.exports`);
    let body = once(text, 'var wasmBytes = require("fs").readFileSync(wasmPath);', 'var wasmBytes = compiled ? null : require("fs").readFileSync(wasmPath);', what);
    body = once(body, 'var wasmModule = new WebAssembly.Module(wasmBytes);', 'var wasmModule = compiled ?? new WebAssembly.Module(wasmBytes);', what);
    const names = [...body.matchAll(/^exports\.(\w+) = \1;$/gm)].map((m) => m[1]);
    if (!names.includes('TextTaskEngine') || !names.includes('setRandomSource')) throw new Error(`${what}: TextTaskEngine and setRandomSource not exported`);
    return `function bindings(compiled) {
var exports = {};
${body}
return Object.assign(exports, { get module() { return wasmModule; }, get memory() { return wasm.memory; } });
}
var first = bindings();
${RANDOM_SOURCE}
${names.filter((n) => n !== 'setRandomSource').map((n) => `exports.${n} = first.${n};`).join('\n')}
exports.setRandomSource = setRandomSource;
exports.freshBindings = freshBindings;
`;
  }
  const { imports, rest } = takeImports(text);
  const { body: whole, names } = takeExports(rest, what);
  let body = whole;
  if (form === 'esm-node') {
    body = once(body, 'var wasmBytes = readFileSync(wasmUrl);', 'var wasmBytes = compiled ? null : readFileSync(wasmUrl);', what);
    body = once(body, 'var wasmModule = new WebAssembly.Module(wasmBytes);', 'var wasmModule = compiled ?? new WebAssembly.Module(wasmBytes);', what);
  } else {
    // The web glue instantiates on init()/initSync(): a fresh one at once from the module.
    body += 'if (compiled !== undefined) initSync({ module: compiled });\n';
  }
  const locals = names.map(([local]) => local);
  if (!locals.includes('TextTaskEngine') || !locals.includes('setRandomSource')) throw new Error(`${what}: TextTaskEngine and setRandomSource not exported`);
  const outer = names.filter(([local]) => local !== 'setRandomSource').map(([local]) => `var ${local} = first.${local};`);
  return `${imports}function bindings(compiled) {
${body}return { ${locals.join(', ')}, get module() { return wasmModule; }, get memory() { return wasm.memory; } };
}
var first = bindings();
${RANDOM_SOURCE}
${outer.join('\n')}
export { ${names.map(([l, e]) => (l === e ? l : `${l} as ${e}`)).join(', ')}, freshBindings };
`;
}
