// The file system the WebAssembly build of nginx-lint reads: the files
// the page gives it, in memory, and nothing else. Go's os package on
// js/wasm calls globalThis.fs with Node.js's callback API (syscall/fs_js.go
// in Go's sources); this is that API over a Map, read-only, with the
// standard streams going to the console. Directories are the parents of
// the files. Go reaches it as the command line reaches the disk, so the
// lint in the page walks a directory, finds .nginx-lint.yaml upward and
// follows includes exactly as `nginx-lint DIR` does.

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function fsError(code, path) {
  const err = new Error(`${code}: ${path}`);
  err.code = code;
  return err;
}

// normalize returns path as an absolute path without "." or ".." segments
// or repeated slashes; relative paths are taken from "/".
export function normalize(path) {
  const out = [];
  for (const seg of String(path).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

function parentOf(path) {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

export class MemFS {
  constructor() {
    this.files = new Map(); // path -> { data: Uint8Array, text: string, mtime: number }
    this.dirs = new Map([["/", 0]]); // path -> mtime
    this.fds = new Map(); // fd -> { path, pos }
    this.nextFd = 100;
    this.clock = 0;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
    this.out = { 1: "", 2: "" };
    // Node's values on Linux; Go maps its flags to these.
    this.constants = { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
  }

  // tick returns a modification time later than every earlier one, so a
  // settings file rewritten within one millisecond is still read again.
  tick() {
    this.clock = Math.max(Date.now(), this.clock + 1);
    return this.clock;
  }

  // setFiles makes the file system hold exactly files ({path: text}): a
  // file whose text did not change keeps its modification time.
  setFiles(files) {
    const next = new Map();
    for (const [p, text] of Object.entries(files)) {
      const path = normalize(p);
      const old = this.files.get(path);
      if (old && old.text === text) next.set(path, old);
      else next.set(path, { data: this.encoder.encode(text), text, mtime: this.tick() });
    }
    this.files = next;
    const dirs = new Map([["/", 0]]);
    for (const path of next.keys()) {
      for (let d = parentOf(path); !dirs.has(d); d = parentOf(d)) dirs.set(d, this.dirs.get(d) ?? this.tick());
    }
    this.dirs = dirs;
  }

  statOf(path) {
    const f = this.files.get(path);
    const dir = f ? undefined : this.dirs.get(path);
    if (!f && dir === undefined) return null;
    const isDir = !f;
    const mtime = isDir ? dir : f.mtime;
    return {
      dev: 1, ino: 0, mode: (isDir ? S_IFDIR | 0o755 : S_IFREG | 0o644), nlink: 1, uid: 0, gid: 0, rdev: 0,
      size: isDir ? 0 : f.data.length, blksize: 4096, blocks: isDir ? 0 : Math.ceil(f.data.length / 512),
      atimeMs: mtime, mtimeMs: mtime, ctimeMs: mtime,
      isDirectory: () => isDir,
      isFile: () => !isDir,
      isSymbolicLink: () => false,
    };
  }

  // check fails with ENOTDIR when a parent of path is a file.
  missing(path) {
    for (let d = parentOf(path); d !== "/"; d = parentOf(d)) {
      if (this.files.has(d)) return fsError("ENOTDIR", path);
    }
    return fsError("ENOENT", path);
  }

  stat(path, cb) {
    const p = normalize(path);
    const st = this.statOf(p);
    st ? cb(null, st) : cb(this.missing(p));
  }

  lstat(path, cb) {
    this.stat(path, cb);
  }

  fstat(fd, cb) {
    const f = this.fds.get(fd);
    if (!f) return cb(fsError("EBADF", String(fd)));
    const st = this.statOf(f.path);
    st ? cb(null, st) : cb(fsError("EBADF", String(fd)));
  }

  open(path, flags, mode, cb) {
    const p = normalize(path);
    const c = this.constants;
    if (flags & (c.O_WRONLY | c.O_RDWR | c.O_CREAT | c.O_TRUNC | c.O_APPEND)) return cb(fsError("EROFS", p));
    const st = this.statOf(p);
    if (!st) return cb(this.missing(p));
    if (flags & c.O_DIRECTORY && !st.isDirectory()) return cb(fsError("ENOTDIR", p));
    const fd = this.nextFd++;
    this.fds.set(fd, { path: p, pos: 0 });
    cb(null, fd);
  }

  close(fd, cb) {
    if (!this.fds.delete(fd)) return cb(fsError("EBADF", String(fd)));
    cb(null);
  }

  read(fd, buffer, offset, length, position, cb) {
    const f = this.fds.get(fd);
    if (!f) return cb(fsError("EBADF", String(fd)));
    const file = this.files.get(f.path);
    if (!file) return cb(fsError("EISDIR", f.path));
    const at = position === null || position === undefined ? f.pos : Number(position);
    const n = Math.max(0, Math.min(length, file.data.length - at));
    buffer.set(file.data.subarray(at, at + n), offset);
    if (position === null || position === undefined) f.pos += n;
    cb(null, n);
  }

  readdir(path, cb) {
    const p = normalize(path);
    if (this.files.has(p)) return cb(fsError("ENOTDIR", p));
    if (!this.dirs.has(p)) return cb(this.missing(p));
    const names = new Set();
    const prefix = p === "/" ? "/" : p + "/";
    for (const k of [...this.files.keys(), ...this.dirs.keys()]) {
      if (k !== p && k.startsWith(prefix)) names.add(k.slice(prefix.length).split("/")[0]);
    }
    cb(null, [...names].sort());
  }

  readlink(path, cb) {
    const p = normalize(path);
    this.statOf(p) ? cb(fsError("EINVAL", p)) : cb(this.missing(p));
  }

  // The standard streams: Go's panics and prints, to the console.
  writeSync(fd, buf) {
    if (fd !== 1 && fd !== 2) throw fsError("EBADF", String(fd));
    this.out[fd] += this.decoder.decode(buf);
    const nl = this.out[fd].lastIndexOf("\n");
    if (nl !== -1) {
      (fd === 2 ? console.error : console.log)(this.out[fd].slice(0, nl));
      this.out[fd] = this.out[fd].slice(nl + 1);
    }
    return buf.length;
  }

  write(fd, buf, offset, length, position, cb) {
    if (fd !== 1 && fd !== 2) return cb(fsError("EROFS", String(fd)));
    if (offset !== 0 || length !== buf.length) return cb(fsError("EINVAL", String(fd)));
    cb(null, this.writeSync(fd, buf));
  }

  fsync(fd, cb) {
    cb(null);
  }
}

// Every call that would change the file system: refused.
for (const name of ["chmod", "chown", "fchmod", "fchown", "ftruncate", "lchown", "link", "mkdir", "rename", "rmdir", "symlink", "truncate", "unlink", "utimes"]) {
  MemFS.prototype[name] = function (...args) {
    args[args.length - 1](fsError("EROFS", String(args[0])));
  };
}

// install makes fs the file system Go reads, with path.resolve as Node's
// and, in a browser, a process whose working directory is "/"
// (wasm_exec.js keeps what is already there, and Node.js's own process
// stays). It must run before wasm_exec.js is loaded.
export function install(fs, global = globalThis) {
  global.fs = fs;
  const enosys = () => {
    const err = new Error("not implemented");
    err.code = "ENOSYS";
    return err;
  };
  if (typeof global.process === "undefined") {
    global.process = {
      getuid: () => -1, getgid: () => -1, geteuid: () => -1, getegid: () => -1,
      getgroups() { throw enosys(); },
      pid: -1, ppid: -1,
      umask() { throw enosys(); },
      cwd: () => "/",
      chdir() { throw enosys(); },
    };
  }
  global.path = { resolve: (...segs) => normalize(segs.reduce((acc, s) => (s.startsWith("/") ? s : acc + "/" + s), "/")) };
}
