// The page's state in its URL, so that a link reproduces it:
//
//   #c=BASE64URL             one nginx.conf: the base64url of its UTF-8 text
//   #f=BASE64URL             several files: of the JSON object {name: text}
//   #x=L2c&n=20000           a generated layout of the many-servers benchmark
//   &v=1.22.1                the nginx version linted for (any of the above)
//
// base64url is RFC 4648's URL alphabet without padding.

// MaxLinkText is the most text put in a link: a larger configuration is
// not shared that way (browsers and chat programs cut long URLs).
export const MaxLinkText = 256 * 1024;

export function toBase64URL(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64URL(s) {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

// encodeState returns the hash (without "#") for files ([{name, text}]),
// the version and the layout they were generated from (null: none, or
// edited since); "" when the text is too large for a link.
export function encodeState({ files, version, layout }) {
  const params = new URLSearchParams();
  const size = files.reduce((n, f) => n + f.text.length, 0);
  if (layout) {
    params.set("x", layout.name);
    params.set("n", String(layout.n));
  } else if (size > MaxLinkText) {
    return "";
  } else if (files.length === 1 && files[0].name === "nginx.conf") {
    params.set("c", toBase64URL(files[0].text));
  } else {
    const obj = {};
    for (const f of files) obj[f.name] = f.text;
    params.set("f", toBase64URL(JSON.stringify(obj)));
  }
  if (version) params.set("v", version);
  return params.toString();
}

// decodeState reads a hash; null when it holds no state. It throws on a
// hash that is not base64url of UTF-8 (a link cut short).
export function decodeState(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const version = params.get("v") || "";
  if (params.has("c")) return { files: [{ name: "nginx.conf", text: fromBase64URL(params.get("c")) }], version };
  if (params.has("f")) {
    const obj = JSON.parse(fromBase64URL(params.get("f")));
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) throw new Error("f= is not a JSON object of files");
    const files = Object.entries(obj).map(([name, text]) => ({ name, text: String(text) }));
    return { files, version };
  }
  if (params.has("x")) return { layout: { name: params.get("x"), n: Number(params.get("n") || 20000) }, version };
  return null;
}
