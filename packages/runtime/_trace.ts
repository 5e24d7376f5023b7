export function trace(label: string): void {
  console.error("TRACE", label, performance.timeOrigin + performance.now());
}
