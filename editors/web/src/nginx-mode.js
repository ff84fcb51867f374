// nginx's syntax for CodeMirror, read as nginx reads it (ngx_conf_read_token):
// a statement is words up to ";" or "{", its first word the directive's
// name, whatever it is; "#" starts a comment only where a word could
// start; quotes hold a word with its escapes; "$name" and "${name}" are
// variables. A Lua block (*_by_lua_block { ... }) is Lua to its matching
// brace, which nginx's lua module reads the same way.

const wordChar = /[^\s;{}"'$]/;

export const nginxMode = {
  name: "nginx",
  startState: () => ({ atStart: true, quote: null, lua: 0, luaNext: false }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (state.quote) return quoted(stream, state);
    if (state.lua > 0) return lua(stream, state);
    if (stream.eatSpace()) return null;
    const ch = stream.peek();
    if (ch === "#") {
      stream.skipToEnd();
      return "comment";
    }
    if (ch === '"' || ch === "'") {
      stream.next();
      state.quote = ch;
      state.atStart = false;
      return quoted(stream, state);
    }
    if (ch === ";") {
      stream.next();
      state.atStart = true;
      state.luaNext = false;
      return "punctuation";
    }
    if (ch === "{" || ch === "}") {
      stream.next();
      state.atStart = true;
      if (ch === "{" && state.luaNext) state.lua = 1;
      state.luaNext = false;
      return "brace";
    }
    if (ch === "$" && variable(stream)) {
      state.atStart = false;
      return "variableName";
    }
    if (state.atStart) {
      stream.eatWhile(wordChar);
      if (stream.current() === "") stream.next();
      state.atStart = false;
      state.luaNext = /_by_lua_block$/.test(stream.current());
      return "keyword";
    }
    stream.next();
    stream.eatWhile(wordChar);
    const w = stream.current();
    if (/^(~\*?|=|\^~|!~\*?)$/.test(w)) return "operator";
    if (/^(on|off)$/.test(w)) return "atom";
    if (/^[0-9]+(\.[0-9]+)?(ms|[kKmMgGsdhwy])?$/.test(w)) return "number";
    return null;
  },
  // Quotes close themselves; braces do not: a block's "}" often comes
  // many lines later, and a typed one would then be one too many.
  languageData: { commentTokens: { line: "#" }, closeBrackets: { brackets: ['"', "'"] } },
};

// variable reads $name or ${name} at the stream, or nothing.
function variable(stream) {
  if (stream.match(/^\$\{[A-Za-z0-9_]+\}/) || stream.match(/^\$[A-Za-z0-9_]+/)) return true;
  return false;
}

// quoted reads a quoted word up to its closing quote, which may be lines
// away, with the variables in it.
function quoted(stream, state) {
  if (stream.peek() === "$" && variable(stream)) return "variableName";
  while (!stream.eol()) {
    const ch = stream.next();
    if (ch === "\\") {
      stream.next();
    } else if (ch === state.quote) {
      state.quote = null;
      return "string";
    } else if (stream.peek() === "$") {
      return "string";
    }
  }
  return "string";
}

// lua passes over a Lua block, counting braces to its end.
function lua(stream, state) {
  while (!stream.eol()) {
    const ch = stream.next();
    if (ch === "{") state.lua++;
    else if (ch === "}" && --state.lua === 0) {
      stream.backUp(1);
      if (stream.current() === "") {
        stream.next();
        state.atStart = true;
        return "brace";
      }
      return "meta";
    }
  }
  return "meta";
}
