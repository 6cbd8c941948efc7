/**
 * The host object handed to each sandbox: timers, interruption and custom
 * commands, built only from what every target runtime has.
 */
import { nextMacrotask, startTimer, stopTimer } from "./platform.js";
import type { HostObject } from "./bindings.js";
import type { DefensePolicy } from "./defense.js";
import { startCommand, type CommandCall, type CommandServices, type CustomCommand } from "./commands.js";
import { noNetwork, type EngineRequest, type Fetcher } from "./network.js";

/** A failed command session: reports `message` as the command's error. */
function failedSession(name: string, message: string): ReturnType<HostObject["startCommand"]> {
  const done = { done: { stdout: new Uint8Array(), stderr: new TextEncoder().encode(`${name}: ${message}\n`), exitCode: 127 } };
  return { next: () => Promise.resolve(done), reply: () => undefined };
}

/**
 * A host whose interruption follows whatever signal `currentSignal` returns,
 * and which runs the custom commands in `commands`, their `ctx.fs` made by `fs`,
 * and sends `curl`/`wget` requests through `fetcher` (js/network.ts; none: every request is refused).
 */
export function createHost(
  currentSignal: () => AbortSignal | undefined,
  commands: Map<string, CustomCommand> = new Map(),
  fs: CommandServices["fs"] = () => {
    throw new Error("ctx.fs is not available");
  },
  policy?: DefensePolicy,
  fetcher: Fetcher = noNetwork,
): HostObject {
  const services: CommandServices = { signal: currentSignal, fs, ...(policy ? { policy } : {}) };
  return {
    commandNames: () => [...commands.keys()],
    fetch: (request) => fetcher(request as EngineRequest),
    startCommand(call) {
      const checked = call as CommandCall;
      const name = checked.argv[0] ?? "";
      const command = commands.get(name);
      return command === undefined ? failedSession(name, "command not found") : startCommand(command, checked, services);
    },
    sleep(millis: number): Promise<void> {
      const signal = currentSignal();
      return new Promise((resolve) => {
        const done = (): void => {
          stopTimer(timer);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = startTimer(done, Math.max(0, millis));
        signal?.addEventListener("abort", done, { once: true });
      });
    },
    yieldNow: nextMacrotask,
    interrupted(): boolean {
      return currentSignal()?.aborted ?? false;
    },
  };
}
