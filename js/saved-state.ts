/**
 * The wrapper's copy of a sandbox's last good state, kept outside the
 * engine's memory so that it survives a crash of the engine.
 *
 * After every successful operation the engine hands over a delta: the node
 * records of the files and directories that changed (whole), the record
 * heads of those whose attributes alone changed, the inode numbers that are
 * gone, and the shell state (variables, functions, options, cwd) whole. The
 * copy applies it, so keeping it costs time in proportion to what changed.
 * After a crash the engine rebuilds the sandbox from {@link SavedState.records}
 * and {@link SavedState.shell} (src/fs/memory/delta.rs has the format).
 */

/** A delta as the engine returns it (src/wasm/convert.rs). */
export interface RawDelta {
  full: boolean;
  records: Uint8Array;
  recordLengths: number[];
  heads: Uint8Array;
  freed: number[];
  shell: Uint8Array;
}

/** Bytes at the start of every node record: inode, kind, mode, owner, times. */
const RECORD_HEAD_LEN = 8 + 1 + 3 * 4 + 3 * 8;

/** The inode number a record or record head starts with. */
function inodeOf(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  return Number(view.getBigUint64(0, true));
}

/** A sandbox's last good state, as node records by inode and the shell state. */
export class SavedState {
  readonly #records = new Map<number, Uint8Array>();
  #shell: Uint8Array | undefined;
  #bytes = 0;

  /** True once a full delta has been applied. */
  get ready(): boolean {
    return this.#shell !== undefined;
  }

  /** Bytes held (records and shell state). */
  get size(): number {
    return this.#bytes + (this.#shell?.byteLength ?? 0);
  }

  /** The number of filesystem nodes held. */
  get nodes(): number {
    return this.#records.size;
  }

  /** Brings the copy up to date with a delta. */
  apply(delta: RawDelta): void {
    if (delta.full) {
      this.#records.clear();
      this.#bytes = 0;
    }
    let at = 0;
    for (const length of delta.recordLengths) {
      // A copy, not a view: a view would keep the whole delta's buffer alive.
      this.#set(delta.records.slice(at, at + length));
      at += length;
    }
    for (let at = 0; at + RECORD_HEAD_LEN <= delta.heads.byteLength; at += RECORD_HEAD_LEN) {
      const head = delta.heads.subarray(at, at + RECORD_HEAD_LEN);
      this.#records.get(inodeOf(head))?.set(head, 0);
    }
    for (const inode of delta.freed) {
      const old = this.#records.get(inode);
      if (old) {
        this.#bytes -= old.byteLength;
        this.#records.delete(inode);
      }
    }
    this.#shell = delta.shell.slice();
  }

  /** Every node record laid end to end, for the engine to rebuild the tree. */
  records(): Uint8Array {
    const out = new Uint8Array(this.#bytes);
    let at = 0;
    for (const record of this.#records.values()) {
      out.set(record, at);
      at += record.byteLength;
    }
    return out;
  }

  /** The shell state bytes. */
  shell(): Uint8Array {
    return this.#shell ?? new Uint8Array(0);
  }

  #set(record: Uint8Array): void {
    const inode = inodeOf(record);
    const old = this.#records.get(inode);
    this.#bytes += record.byteLength - (old?.byteLength ?? 0);
    this.#records.set(inode, record);
  }
}
