// The app runs under `script-src 'self'` (no 'unsafe-eval'). zod compiles fast parsers with
// `new Function` unless told not to, and every schema it builds probes `Function("")` first:
// a probe the CSP refuses and reports as a violation. zod reads this global when its module
// loads, so it must be set before any module runs, and only a classic script in index.html
// runs that early (the bundler may evaluate shared chunks before the entry's own imports).
// Jitless parsing is what zod falls back to under the CSP anyway.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, {
  jitless: true,
});
