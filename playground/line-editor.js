// Line editing over an xterm.js terminal: the cursor keys, Home/End,
// Backspace/Delete, history (Up/Down), Ctrl-A/E/U/K/W/L, Tab completion and
// Ctrl-C. Input typed while a command runs is kept and read afterwards.

const KEYS = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1b[H": "home",
  "\x1bOH": "home",
  "\x1b[1~": "home",
  "\x1b[F": "end",
  "\x1bOF": "end",
  "\x1b[4~": "end",
  "\x1b[3~": "delete",
};

/** Reads lines from `term`; `complete(line, cursor)` resolves to candidate words. */
export class LineEditor {
  #term;
  #complete;
  #history = [];
  #historyIndex = 0;
  #typeahead = "";
  #reading;
  #buffer = [];
  #cursor = 0;
  #prompt = "";
  /** Called on Ctrl-C while no line is being read (a command runs). */
  onInterrupt = () => {};

  constructor(term, complete) {
    this.#term = term;
    this.#complete = complete;
    term.onData((data) => this.#input(data));
  }

  /** The commands entered so far, oldest first. */
  get history() {
    return [...this.#history];
  }

  /** Shows `prompt` and resolves to the line typed, or null after Ctrl-C. */
  read(prompt) {
    this.#prompt = prompt;
    this.#buffer = [];
    this.#cursor = 0;
    this.#historyIndex = this.#history.length;
    this.#term.write(prompt);
    return new Promise((resolve) => {
      this.#reading = resolve;
      const pending = this.#typeahead;
      this.#typeahead = "";
      if (pending) {
        this.#input(pending);
      }
    });
  }

  /** Types `text` as if the user typed it: into the line being read, or after the running command. */
  type(text) {
    if (this.#reading) {
      this.#input(text);
    } else {
      this.#typeahead += text;
    }
  }

  /** Drops input typed ahead (Stop also cancels the rest of an example). */
  discardTypeahead() {
    this.#typeahead = "";
  }

  /** Adds an entered command to the history (Up brings it back). */
  remember(line) {
    if (line.trim() !== "" && this.#history[this.#history.length - 1] !== line) {
      this.#history.push(line);
    }
  }

  #input(data) {
    if (!this.#reading) {
      if (data.includes("\x03")) {
        this.#typeahead = "";
        this.onInterrupt();
      } else {
        this.#typeahead += data;
      }
      return;
    }
    const key = KEYS[data];
    if (key) {
      this.#key(key);
      return;
    }
    for (let index = 0; index < data.length; index++) {
      if (!this.#reading) {
        this.#typeahead += data.slice(index);
        return;
      }
      const char = data[index];
      if (char === "\x1b") {
        // An escape sequence inside pasted text: skip it whole.
        const match = /^\x1b(\[[0-9;]*[~A-Za-z]|O[A-Za-z])?/.exec(data.slice(index));
        const sequence = match?.[0] ?? "\x1b";
        if (KEYS[sequence]) {
          this.#key(KEYS[sequence]);
        }
        index += sequence.length - 1;
        continue;
      }
      if (char === "\n" && data[index - 1] === "\r") {
        continue;
      }
      this.#char(char);
    }
  }

  #char(char) {
    switch (char) {
      case "\r":
      case "\n":
        return this.#finish(this.#buffer.join(""));
      case "\x03":
        this.#term.write("^C\r\n");
        return this.#finish(null);
      case "\x7f":
      case "\b":
        if (this.#cursor > 0) {
          this.#buffer.splice(--this.#cursor, 1);
          this.#redraw();
        }
        return;
      case "\x04":
        return this.#key("delete");
      case "\x01":
        return this.#key("home");
      case "\x05":
        return this.#key("end");
      case "\x15":
        this.#buffer.splice(0, this.#cursor);
        this.#cursor = 0;
        return this.#redraw();
      case "\x0b":
        this.#buffer.splice(this.#cursor);
        return this.#redraw();
      case "\x17": {
        let start = this.#cursor;
        while (start > 0 && this.#buffer[start - 1] === " ") start--;
        while (start > 0 && this.#buffer[start - 1] !== " ") start--;
        this.#buffer.splice(start, this.#cursor - start);
        this.#cursor = start;
        return this.#redraw();
      }
      case "\x0c":
        this.#term.write("\x1b[H\x1b[2J");
        return this.#redraw();
      case "\t":
        return void this.#tab();
      default:
        if (char >= " ") {
          this.#buffer.splice(this.#cursor++, 0, char);
          this.#redraw();
        }
    }
  }

  #key(key) {
    switch (key) {
      case "left":
        this.#cursor = Math.max(0, this.#cursor - 1);
        break;
      case "right":
        this.#cursor = Math.min(this.#buffer.length, this.#cursor + 1);
        break;
      case "home":
        this.#cursor = 0;
        break;
      case "end":
        this.#cursor = this.#buffer.length;
        break;
      case "delete":
        this.#buffer.splice(this.#cursor, 1);
        break;
      case "up":
      case "down": {
        const next = this.#historyIndex + (key === "up" ? -1 : 1);
        if (next < 0 || next > this.#history.length) {
          return;
        }
        this.#historyIndex = next;
        this.#buffer = [...(this.#history[next] ?? "")];
        this.#cursor = this.#buffer.length;
        break;
      }
    }
    this.#redraw();
  }

  async #tab() {
    const line = this.#buffer.join("");
    const before = line.slice(0, this.#cursor);
    const word = /[^\s;|&<>()]*$/.exec(before)?.[0] ?? "";
    const candidates = await this.#complete(before, word);
    if (!this.#reading || this.#buffer.join("") !== line || candidates.length === 0) {
      return;
    }
    let common = candidates[0];
    for (const candidate of candidates) {
      while (!candidate.startsWith(common)) common = common.slice(0, -1);
    }
    if (candidates.length === 1 && !common.endsWith("/")) {
      common += " ";
    }
    if (common.length > word.length) {
      this.#buffer.splice(this.#cursor, 0, ...common.slice(word.length));
      this.#cursor += common.length - word.length;
      this.#redraw();
    } else if (candidates.length > 1) {
      this.#term.write(`\r\n${candidates.slice(0, 200).join("  ")}\r\n`);
      this.#term.write(this.#prompt);
      this.#redraw();
    }
  }

  #redraw() {
    const text = this.#buffer.join("");
    const back = this.#buffer.length - this.#cursor;
    this.#term.write(`\r${this.#prompt}${text}\x1b[K${back > 0 ? `\x1b[${back}D` : ""}`);
  }

  #finish(line) {
    const resolve = this.#reading;
    this.#reading = undefined;
    if (line !== null) {
      this.#term.write("\r\n");
    }
    resolve(line);
  }
}
