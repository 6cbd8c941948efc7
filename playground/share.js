// Share links: a short script kept in the page address (#run=...), UTF-8 in
// URL-safe base64.

/** The longest script a link carries, in bytes. */
export const SHARE_LIMIT = 4096;

/** The address of this page with `script` in its fragment. */
export function shareUrl(script, base) {
  const bytes = new TextEncoder().encode(script);
  if (bytes.length > SHARE_LIMIT) {
    throw new Error(`the script is ${bytes.length} bytes; a link carries at most ${SHARE_LIMIT}`);
  }
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const encoded = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const url = new URL(base);
  url.hash = `run=${encoded}`;
  return url.href;
}

/** The script a page address carries, or undefined. */
export function sharedScript(hash) {
  const match = /^#run=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!match) {
    return undefined;
  }
  try {
    const binary = atob(match[1].replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
