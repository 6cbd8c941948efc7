// The page's side of the shell worker (worker.js): requests with replies,
// streamed output, and Stop.

/** A shell running in a Web Worker. */
export class ShellClient {
  #worker;
  #next = 1;
  #pending = new Map();
  #outputs = new Map();

  /** Talks to `worker`, or to a new module worker loaded from `worker` when it is a URL. */
  constructor(worker) {
    this.#worker = worker instanceof Worker ? worker : new Worker(worker, { type: "module" });
    this.#worker.onmessage = (event) => this.#receive(event.data);
    this.#worker.onerror = (event) => {
      for (const { reject } of this.#pending.values()) {
        reject(new Error(event.message || "the shell worker failed"));
      }
      this.#pending.clear();
    };
  }

  /** Sends a request and resolves to the worker's reply. */
  request(type, fields = {}, transfer = []) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...fields, type, id }, transfer);
    });
  }

  /** Runs a script; `onOutput(stream, text)` receives its output as it comes. */
  async exec(script, onOutput) {
    const id = this.#next;
    this.#outputs.set(id, onOutput);
    try {
      return await this.request("exec", { script });
    } finally {
      this.#outputs.delete(id);
    }
  }

  /** Interrupts the running script, as Ctrl-C does in a terminal. */
  stop() {
    this.#worker.postMessage({ type: "stop" });
  }

  #receive(message) {
    if (message.type === "output") {
      this.#outputs.get(message.id)?.(message.stream, message.text);
      return;
    }
    const pending = this.#pending.get(message.id);
    if (!pending) {
      return;
    }
    this.#pending.delete(message.id);
    if (message.error !== undefined) {
      pending.reject(new Error(message.error));
    } else {
      pending.resolve(message.value);
    }
  }
}
