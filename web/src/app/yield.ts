/**
 * Ends the current task and goes on in a new one, so the browser can draw and answer input in between: with
 * `scheduler.yield()` where the browser has it (the continuation goes ahead of other queued tasks), otherwise
 * after a message to this window's own channel (not a timer, which browsers may delay).
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
