// The result types of every exported function of a .wasm, read from its type, import,
// function and export sections (WebAssembly.Module.exports() names exports, not signatures).

/** Value type codes of the numeric types: i32, i64, f32, f64. */
export const NUMERIC_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c]);

/** Reads a .wasm from just past its header: LEB128 integers and names, at `at`. */
class Reader {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 8;
  }

  u32() {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  }

  name() {
    const length = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
}

/** @param {Uint8Array} bytes @returns {Map<string, number[]>} export name -> its result type codes */
export function exportResultTypes(bytes) {
  const r = new Reader(bytes);
  const u32 = () => r.u32();
  const name = () => r.name();
  /** Reads one value type's code (reference types with a heap type take more bytes). */
  const valueType = () => {
    const code = bytes[r.at++];
    if (code === 0x63 || code === 0x64) u32();
    return code;
  };
  const limits = () => {
    const flags = bytes[r.at++];
    u32();
    if (flags & 1) u32();
  };
  const typeResults = [];
  const functionTypes = []; // imported functions first, then the module's own
  const exports = new Map();
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const size = u32();
    const end = r.at + size;
    if (id === 1) {
      for (let n = u32(); n > 0; n--) {
        if (bytes[r.at++] !== 0x60) throw new Error('only function types are expected');
        for (let p = u32(); p > 0; p--) valueType();
        const results = [];
        for (let r = u32(); r > 0; r--) results.push(valueType());
        typeResults.push(results);
      }
    } else if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        name();
        name();
        const kind = bytes[r.at++];
        if (kind === 0) functionTypes.push(u32());
        else if (kind === 1) {
          valueType();
          limits();
        } else if (kind === 2) limits();
        else if (kind === 3) {
          valueType();
          r.at++; // mutability
        } else if (kind === 4) {
          r.at++; // tag attribute
          u32();
        } else throw new Error(`unknown import kind ${kind}`);
      }
    } else if (id === 3) {
      for (let n = u32(); n > 0; n--) functionTypes.push(u32());
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        const exported = name();
        const kind = bytes[r.at++];
        const index = u32();
        if (kind === 0) exports.set(exported, typeResults[functionTypes[index]]);
      }
    }
    r.at = end;
  }
  return exports;
}

/**
 * The code size of every function a .wasm defines, with its name from the name section (for a
 * module kept with its names: wasm-bindgen --keep-debug, wasm-opt -g) and whether it is
 * exported, and the bytes of its data segments: the figures twiggy's `top` gives, by section.
 * @param {Uint8Array} bytes
 * @returns {{ functions: { name: string, size: number, exported: boolean }[], dataBytes: number }}
 */
export function functionSizes(bytes) {
  const r = new Reader(bytes);
  const u32 = () => r.u32();
  const name = () => r.name();
  const imported = WebAssembly.Module.imports(new WebAssembly.Module(bytes)).filter((i) => i.kind === 'function').length;
  const sizes = [];
  const names = new Map();
  const exported = new Set();
  let dataBytes = 0;
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const size = u32();
    const end = r.at + size;
    if (id === 10) {
      for (let n = u32(); n > 0; n--) {
        const body = u32();
        sizes.push(body);
        r.at += body;
      }
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        name();
        const kind = bytes[r.at++];
        const index = u32();
        if (kind === 0) exported.add(index);
      }
    } else if (id === 11) {
      dataBytes = size;
    } else if (id === 0 && name() === 'name') {
      while (r.at < end) {
        const sub = bytes[r.at++];
        const length = u32();
        const subEnd = r.at + length;
        if (sub === 1) for (let n = u32(); n > 0; n--) names.set(u32(), name());
        r.at = subEnd;
      }
    }
    r.at = end;
  }
  const functions = sizes.map((size, i) => ({ name: names.get(imported + i) ?? `code[${i}]`, size, exported: exported.has(imported + i) }));
  return { functions, dataBytes };
}
