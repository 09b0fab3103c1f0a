// P4's Node floors: what loading a .wasm from an ES module package costs before any of the
// package's code runs. Imported from a file (the ES module loader's path for a package), it
// imports node:fs, reads the module and compiles and instantiates it, as wasm-bindgen's Node
// glue does with ours. Its imports are functions that throw: instantiation calls none.
import { readFileSync } from 'node:fs';

export function loadModule(file) {
  const module = new WebAssembly.Module(readFileSync(file));
  const imports = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') throw new Error(`${file}: imports a ${kind}, which the floor does not provide`);
    (imports[from] ??= {})[name] = () => {
      throw new Error(`${name} is not provided`);
    };
  }
  return new WebAssembly.Instance(module, imports);
}
