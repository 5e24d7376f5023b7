/**
 * A sandbox Worker module that answers every call at once except one for the path
 * `stuck`, on which it loops for ever (tests: one call stuck in a long synchronous loop
 * while the next Run's calls must still be served). Plain JavaScript, so that starting it
 * under `deno test` costs no type check.
 *
 * @module
 */
self.onmessage = (event) => {
  const message = event.data;
  if (message.type !== "run") return;
  if (message.args?.path === "stuck") {
    for (;;) {
      // Busy forever: the message loop never runs again.
    }
  }
  self.postMessage({
    id: message.id,
    result: { content: `read ${message.args?.path}` },
    facts: { fileChanges: [], processes: [] },
  });
};
