-- Headless Neovim, the shipped nginx-lint.lua unchanged, typing and several
-- open files (issue 30): run by ../../typing_test.go as
--   nvim --headless -u nginx-lint.lua -c "luafile typing_test.lua"
-- with nginx-lint on PATH, $NGINX_LINT_TEST_ROOT a directory named nginx
-- holding nginx.conf (which includes conf.d/app.conf), typing/nginx.conf,
-- main/nginx.conf (which includes main/snippets/vars.conf) and
-- disk/nginx.conf (which includes disk/extra.conf), and
-- $NGINX_LINT_TEST_LOG the file this writes its steps to. Neovim 0.7 cannot watch files for a server: the server looks at the
-- disk itself. Each wait is bounded; it exits 0 only when every step
-- passed.
local support = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "support.lua")
local root, log, check, request = support.root, support.log, support.check, support.request
support.timeout = 15000
local timeout = support.timeout

-- attached is the buffer's nginx-lint client, nil before it attached.
local function attached(bufnr)
  return support.clients(bufnr)[1]
end

local function codes(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out, string.format("%s@%d", tostring(d.code), d.lnum))
  end
  table.sort(out)
  return table.concat(out, ",")
end

local function has_code(bufnr, code, below)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if tostring(d.code) == code and d.lnum > (below or -1) then
      return true
    end
  end
  return false
end

-- open edits path and waits for the client to attach.
local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == "nginx", "%s: filetype %q", path, vim.bo[buf].filetype)
  check(vim.wait(timeout, function()
    return attached(buf) ~= nil
  end, 20), "%s: no nginx-lint client attached", path)
  return buf
end

local function at(buf, line, col)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
end

-- col returns the 0-based column of the first sub in line (0-based) of buf,
-- plus off.
local function col(buf, line, sub, off)
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ""
  local i = text:find(sub, 1, true)
  check(i ~= nil, "line %d lacks %q: %q", line, sub, text)
  return i - 1 + (off or 0)
end

local function definition_line(buf, line, sub, off)
  local res = request(buf, "textDocument/definition", at(buf, line, col(buf, line, sub, off)))
  if res == nil or #res == 0 then
    return nil
  end
  return res[1].range.start.line, res[1].uri
end

local function typing()
  local buf = open(root .. "/typing/nginx.conf")
  local base = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  check(vim.wait(timeout, function()
    return codes(buf) == ""
  end, 20), "typing/nginx.conf on open: %s", codes(buf))
  local cases = {
    "        server_tokens ",
    "        include ",
    "        set $y",
    "        proxy_pass http://",
    "        if ($request_method = POST) {",
    "        }",
    '        add_header X "abc',
  }
  for _, typed in ipairs(cases) do
    -- Typed on line 7 (0-based 6), above the location.
    vim.api.nvim_buf_set_lines(buf, 6, 6, false, { typed })
    check(vim.wait(timeout, function()
      return has_code(buf, "NL1001") or has_code(buf, "NL1002")
    end, 20), "%q: no syntax finding: %s", typed, codes(buf))
    -- Nothing below it is broken by it: no unknown variable, nothing
    -- misplaced (nginx's syntax error may be below: an unclosed block is
    -- reported where the file ends).
    for _, code in ipairs({ "NL2035", "NL2002", "NL2001" }) do
      check(not has_code(buf, code, 7), "%q: %s below the typing: %s", typed, code, codes(buf))
    end
    -- Definitions of backend, $x and @fb from the location.
    check(definition_line(buf, 8, "backend", 2) == 2, "%q: definition of backend", typed)
    check(definition_line(buf, 9, "$x", 1) == 5, "%q: definition of $x", typed)
    check(definition_line(buf, 10, "@fb", 1) == 12, "%q: definition of @fb", typed)
    local refs = request(buf, "textDocument/references", {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = 8, character = col(buf, 8, "backend", 2) },
      context = { includeDeclaration = true },
    })
    check(refs ~= nil and #refs == 2, "%q: references of backend: %s", typed, vim.inspect(refs))
    local comp = request(buf, "textDocument/completion", at(buf, 9, 12))
    local items = comp and (comp.items or comp) or {}
    local labels = {}
    for _, it in ipairs(items) do
      labels[it.label] = true
    end
    check(#items > 500 and labels["proxy_pass"], "%q: completion in the location: %d items", typed, #items)
    local syms = request(buf, "textDocument/documentSymbol", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
    local names = {}
    local function walk(list)
      for _, s in ipairs(list or {}) do
        table.insert(names, s.name)
        walk(s.children)
      end
    end
    walk(syms)
    local outline = table.concat(names, ", ")
    check(outline:find("location /, location @fb", 1, true), "%q: outline %s", typed, outline)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, base)
    check(vim.wait(timeout, function()
      return codes(buf) == ""
    end, 20), "%q undone: %s", typed, codes(buf))
    log("ok typing %q", typed)
  end
end

local function several_files()
  -- A set in an open included snippet clears the main file's unknown
  -- variable, unsaved.
  local main = open(root .. "/main/nginx.conf")
  check(vim.wait(timeout, function()
    return has_code(main, "NL2035")
  end, 20), "main/nginx.conf: no unknown variable: %s", codes(main))
  local snip = open(root .. "/main/snippets/vars.conf")
  vim.api.nvim_buf_set_lines(snip, 1, 1, false, { "set $from_snippet 1;" })
  check(vim.wait(timeout, function()
    return not has_code(main, "NL2035")
  end, 20), "main/nginx.conf after the snippet's set: %s", codes(main))
  local line, uri = definition_line(main, 5, "$from", 2)
  check(line == 1 and uri and uri:find("snippets/vars.conf", 1, true), "definition of $from_snippet: %s %s", tostring(line), tostring(uri))
  log("ok an open snippet's set reaches main/nginx.conf")

  -- An upstream moved in one open file: another open file follows it.
  local pool = open(root .. "/nginx.conf")
  local app = open(root .. "/conf.d/app.conf")
  check(definition_line(app, 2, "backend", 2) == 2, "definition of backend before")
  vim.api.nvim_buf_set_lines(pool, 2, 2, false, { "    # the pool", "    # of app servers" })
  check(vim.wait(timeout, function()
    return definition_line(app, 2, "backend", 2) == 4
  end, 200), "definition of backend after nginx.conf moved it: %s", tostring(definition_line(app, 2, "backend", 2)))
  log("ok an upstream moved in nginx.conf: app.conf follows")

  -- A file changed on disk by another program.
  local disk = open(root .. "/disk/nginx.conf")
  check(vim.wait(timeout, function()
    return codes(disk) == ""
  end, 20), "disk/nginx.conf on open: %s", codes(disk))
  local f = assert(io.open(root .. "/disk/extra.conf", "w"))
  f:write("map $uri $w { default a; }\n")
  f:close()
  check(vim.wait(timeout, function()
    return has_code(disk, "NL2035")
  end, 50), "disk/nginx.conf after extra.conf changed on disk: %s", codes(disk))
  log("ok a file changed on disk")
end

-- Buffers edited and left unsaved stay open in the background.
vim.o.hidden = true

support.run(function()
  typing()
  several_files()
end)
