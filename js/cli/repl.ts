/**
 * The interactive shell: a prompt showing the sandbox's working directory,
 * line editing and history from node:readline (kept in memory only: nothing
 * is written to the host), a continuation prompt while the input is
 * incomplete, Ctrl-C to interrupt, Ctrl-D to leave.
 */
import { createInterface } from "node:readline";
import type { Bash } from "../node.js";

const HOME = "/home/user";

/** `user@sandbox:~/dir$ `, with the home directory shown as `~`. */
function primaryPrompt(cwd: string): string {
  const shown = cwd === HOME ? "~" : cwd.startsWith(`${HOME}/`) ? `~${cwd.slice(HOME.length)}` : cwd;
  return `user@sandbox:${shown}$ `;
}

/** Runs the interactive shell until Ctrl-D or `exit`; resolves to the last status. */
export function interactive(bash: Bash, banner: string): Promise<number> {
  return new Promise((resolve) => {
    const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
    const lines = createInterface({ input: process.stdin, output: process.stdout, terminal, historySize: 1000 });
    let pending = "";
    let status = 0;
    let cwd = HOME;
    let running: AbortController | undefined;
    let leaving = false;
    let chain: Promise<void> = Promise.resolve();

    const prompt = (): void => {
      lines.setPrompt(pending ? "> " : primaryPrompt(cwd));
      lines.prompt();
    };

    const handle = async (line: string): Promise<void> => {
      if (leaving) {
        return;
      }
      pending = pending ? `${pending}\n${line}` : line;
      if ((await bash.completeness(pending)) === "incomplete") {
        prompt();
        return;
      }
      const script = pending;
      pending = "";
      if (script.trim() !== "") {
        running = new AbortController();
        let exited = false;
        try {
          const result = await bash.exec(script, { signal: running.signal });
          process.stdout.write(result.stdout);
          process.stderr.write(result.stderr);
          status = result.exitCode;
          // `exit` ends the session; a fatal error or an interrupted command
          // (Ctrl-C) does not, as in an interactive bash.
          exited = Boolean((result as { exitCalled?: boolean }).exitCalled) && !running.signal.aborted;
        } catch (error) {
          process.stderr.write(`wabash: ${error instanceof Error ? error.message : String(error)}\n`);
          status = 70;
        } finally {
          running = undefined;
        }
        if (exited) {
          leaving = true;
          lines.close();
          return;
        }
        cwd = await bash.getCwd().catch(() => cwd);
      }
      prompt();
    };

    lines.on("line", (line) => {
      chain = chain.then(() => handle(line));
    });
    lines.on("SIGINT", () => {
      if (running) {
        running.abort();
        process.stdout.write("^C\n");
        return;
      }
      pending = "";
      status = 130;
      process.stdout.write("^C\n");
      prompt();
    });
    lines.on("close", () => {
      void chain.then(() => {
        process.stdout.write("exit\n");
        resolve(status);
      });
    });

    process.stdout.write(`${banner}\n`);
    void chain.then(async () => {
      cwd = await bash.getCwd().catch(() => cwd);
      prompt();
    });
  });
}
