// Edge runtimes (workerd, Vercel's edge-light) turn an imported .wasm file
// into a compiled WebAssembly.Module; compiling from bytes is forbidden there.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}
