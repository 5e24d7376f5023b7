/**
 * A sandbox Worker module whose calls never return and never read a cancel (tests: a Worker
 * stuck in a long synchronous loop, like a catastrophic regex).
 *
 * @module
 */
self.onmessage = () => {
  for (;;) {
    // Busy forever: the message loop never runs again.
  }
};
