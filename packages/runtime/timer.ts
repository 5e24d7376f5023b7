/**
 * One-shot timers behind a function that code with a deadline takes as an option, so its
 * tests can move a fake clock instead of waiting in real time.
 *
 * @module
 */

/**
 * Calls `callback` once after `ms` milliseconds.
 *
 * @returns a function that cancels the timer (calling it after the timer fired is harmless)
 */
export type ScheduleTimer = (callback: () => void, ms: number) => () => void;

/** The real clock's {@linkcode ScheduleTimer}. */
export const scheduleTimer: ScheduleTimer = (callback, ms) => {
  const id = setTimeout(callback, ms);
  return () => clearTimeout(id);
};
