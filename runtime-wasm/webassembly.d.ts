// The WebAssembly JavaScript API as Node.js 20 provides it. The project compiles without
// the DOM library (whose fetch and body typings differ from Node's), which is where
// TypeScript keeps these declarations; this is the subset the query runtime and the
// compiler's tests use.
declare namespace WebAssembly {
  type ImportValue = Function | Global | Memory | Table | number;
  type ModuleImports = Record<string, ImportValue>;
  type Imports = Record<string, ModuleImports>;
  type Exports = Record<string, Function | Global | Memory | Table>;
  type BufferSource = ArrayBufferView<ArrayBuffer> | ArrayBuffer;

  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }

  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer | SharedArrayBuffer;
    grow(delta: number): number;
  }

  class Module {
    constructor(bytes: BufferSource);
  }

  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Exports;
  }

  class Global {
    constructor(descriptor: { value: string; mutable?: boolean }, value?: unknown);
    value: unknown;
  }

  class Table {
    constructor(descriptor: { element: string; initial: number; maximum?: number });
    readonly length: number;
    get(index: number): unknown;
    set(index: number, value: unknown): void;
    grow(delta: number): number;
  }

  class CompileError extends Error {}
  class LinkError extends Error {}
  class RuntimeError extends Error {}

  interface WebAssemblyInstantiatedSource {
    module: Module;
    instance: Instance;
  }

  function compile(bytes: BufferSource): Promise<Module>;
  function validate(bytes: BufferSource): boolean;
  function instantiate(module: Module, imports?: Imports): Promise<Instance>;
  function instantiate(bytes: BufferSource, imports?: Imports): Promise<WebAssemblyInstantiatedSource>;
}
