import { useEffect, useState } from "preact/hooks";

/**
 * The current time, re-read every second while the component is mounted (a breaker's
 * countdown, a Run's elapsed time).
 *
 * @returns epoch milliseconds
 */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
