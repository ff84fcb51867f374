-- Headless Neovim test of the shipped nginx-lint.lua, run by ../../editors_test.go as
--   nvim --headless -u nginx-lint.lua -c "luafile lsp_test.lua"
-- with nginx-lint on PATH, $NGINX_LINT_TEST_ROOT a directory named nginx
-- holding nginx.conf and snippets/gzip.conf, and $NGINX_LINT_TEST_LOG the
-- file this writes its steps to. It uses each feature as a user would
-- (open, edit, format, jump) and asserts what the buffer shows. It exits 0
-- only when every step passed; each wait is bounded.
local support = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "support.lua")
local root, log, check, request = support.root, support.log, support.check, support.request
local clients = support.clients
local timeout = support.timeout

local function lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

local function diag_codes(bufnr)
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(codes, tostring(d.code))
  end
  table.sort(codes)
  return table.concat(codes, ",")
end

local function position(line, character)
  return { line = line, character = character }
end

local function run()
  log("nvim %s", tostring(vim.version and vim.version() and vim.inspect(vim.version()):gsub("%s+", " ") or "?"))

  -- Filetype detection of every layout the README names, and not of
  -- other *.conf files.
  local cases = {
    [root .. "/nginx.conf"] = true,
    [root .. "/../site.nginx"] = true,
    [root .. "/sites-enabled/default"] = true,
    [root .. "/../../srv/conf.d/app.conf"] = true,
    [root .. "/../../srv/site/snippets/ssl.conf"] = true,
    [root .. "/deep/er/x.conf"] = true,
    [root .. "/../../srv/other/app.conf"] = false,
  }
  for path, want in pairs(cases) do
    vim.cmd("noautocmd enew")
    vim.cmd("edit " .. vim.fn.fnameescape(vim.fn.simplify(path)))
    local ft = vim.bo.filetype
    check((ft == "nginx") == want, "%s: filetype %q, want nginx=%s", path, ft, tostring(want))
    vim.cmd("bwipeout!")
  end
  log("ok filetype")

  -- Diagnostics on open: root is missing its ";".
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/nginx.conf"))
  local buf = vim.api.nvim_get_current_buf()
  -- The request carries these as tabSize and insertSpaces; they indent only
  -- a file without indentation of its own (this one has four spaces).
  vim.bo[buf].expandtab = true
  vim.bo[buf].shiftwidth = 4
  vim.bo[buf].tabstop = 4
  check(vim.wait(timeout, function()
    return #clients(buf) == 1
  end, 20), "no nginx-lint client attached")
  local client = clients(buf)[1]
  check(client.config.root_dir == root, "root_dir %q, want %q", tostring(client.config.root_dir), root)
  check(vim.wait(timeout, function()
    return diag_codes(buf) ~= ""
  end, 20), "no diagnostics on open")
  local d = vim.diagnostic.get(buf)[1]
  check(d.code == "NL1001" and d.lnum == 8, "diagnostic on open: %s", vim.inspect(vim.diagnostic.get(buf)))
  log("ok diagnostics on open: %s line %d: %s", d.code, d.lnum + 1, d.message)

  -- A quick fix, applied: the code action for the diagnostic inserts ";".
  -- vim.diagnostic keeps 0-based lines and columns (in the client's
  -- offset encoding, UTF-16 here; the line is ASCII).
  local lsp_diag = {
    range = { start = position(d.lnum, d.col), ["end"] = position(d.end_lnum, d.end_col) },
    message = d.message,
    code = d.code,
    severity = d.severity,
  }
  local actions = request(buf, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag } },
  })
  local fix
  for _, a in ipairs(actions or {}) do
    if a.kind == "quickfix" and a.edit then
      fix = a
    end
  end
  check(fix ~= nil, "no quick fix: %s", vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  check(lines(buf)[8] == "            root /var/www;", "after the quick fix line 8 is %q", lines(buf)[8])
  log("ok quick fix %q applied", fix.title)

  -- Diagnostics after an edit: the fix clears them, an unknown directive
  -- (typed without indentation) brings one back.
  check(vim.wait(timeout, function()
    return diag_codes(buf) == ""
  end, 20), "diagnostics after the fix: %s", diag_codes(buf))
  vim.api.nvim_buf_set_lines(buf, 6, 6, false, { "frobnicate on;" })
  check(vim.wait(timeout, function()
    return diag_codes(buf) == "NL2001"
  end, 20), "diagnostics after the edit: %q", diag_codes(buf))
  log("ok diagnostics after edits: none, then %s", diag_codes(buf))

  -- Hover on server_name (line 6).
  local hover = request(buf, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(5, 10),
  })
  local text = hover and hover.contents and (hover.contents.value or vim.inspect(hover.contents)) or ""
  check(text:find("server_name", 1, true) ~= nil, "hover: %s", vim.inspect(hover))
  log("ok hover: %d characters", #text)

  -- Completion inside location: directives of that context.
  vim.api.nvim_buf_set_lines(buf, 9, 9, false, { "            proxy_" })
  local comp = request(buf, "textDocument/completion", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(9, 18),
  })
  local items = comp and (comp.items or comp) or {}
  local labels = {}
  for _, it in ipairs(items) do
    labels[it.label] = true
  end
  check(labels["proxy_pass"] and not labels["events"], "completion: %d items, proxy_pass=%s events=%s", #items,
    tostring(labels["proxy_pass"]), tostring(labels["events"]))
  vim.api.nvim_buf_set_lines(buf, 9, 10, false, {})
  log("ok completion: %d items", #items)

  -- Formatting: the unindented line gets the server block's indentation.
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ async = false, timeout_ms = timeout })
  else
    vim.lsp.buf.formatting_sync(nil, timeout)
  end
  check(lines(buf)[7] == "        frobnicate on;", "after formatting line 7 is %q", lines(buf)[7])
  log("ok formatting")

  -- Rename a variable (set, then used): both places change.
  vim.api.nvim_buf_set_lines(buf, 6, 6, false, { "        set $pool a;", "        add_header X-Pool $pool;" })
  local edit = request(buf, "textDocument/rename", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(7, 28),
    newName = "backend",
  })
  check(edit ~= nil, "rename: no edit")
  vim.lsp.util.apply_workspace_edit(edit, client.offset_encoding)
  check(lines(buf)[7] == "        set $backend a;" and lines(buf)[8] == "        add_header X-Pool $backend;",
    "after the rename: %s", vim.inspect({ lines(buf)[7], lines(buf)[8] }))
  log("ok rename")

  -- Go to definition of a variable: from its use to its set.
  vim.api.nvim_win_set_cursor(0, { 8, 29 })
  check(vim.api.nvim_get_current_line():find("$backend", 1, true), "line 8: %q", vim.api.nvim_get_current_line())
  vim.lsp.buf.definition()
  check(vim.wait(timeout, function()
    return vim.api.nvim_win_get_cursor(0)[1] == 7
  end, 20), "variable definition: cursor at %s, want line 7", vim.inspect(vim.api.nvim_win_get_cursor(0)))
  log("ok variable definition: line 7")

  -- Go to declaration (nginx-lint answers it as the definition of a
  -- name): from the use back to the set.
  vim.api.nvim_win_set_cursor(0, { 8, 29 })
  vim.lsp.buf.declaration()
  check(vim.wait(timeout, function()
    return vim.api.nvim_win_get_cursor(0)[1] == 7
  end, 20), "variable declaration: cursor at %s, want line 7", vim.inspect(vim.api.nvim_win_get_cursor(0)))
  log("ok variable declaration: line 7")

  -- Hover on the variable says what defines it.
  local vh = request(buf, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(7, 29),
  })
  local vtext = vh and vh.contents and (vh.contents.value or "") or ""
  check(vtext:find("set $backend a", 1, true) ~= nil, "variable hover: %s", vim.inspect(vh))
  log("ok variable hover")

  -- Completion of values: after "server_tokens ", its values.
  vim.api.nvim_buf_set_lines(buf, 6, 6, false, { "        server_tokens " })
  local vcomp = request(buf, "textDocument/completion", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(6, 22),
  })
  local vlabels = {}
  for _, it in ipairs(vcomp and (vcomp.items or vcomp) or {}) do
    table.insert(vlabels, it.label)
  end
  table.sort(vlabels)
  check(table.concat(vlabels, " ") == "build off on", "value completion: %s", table.concat(vlabels, " "))
  vim.api.nvim_buf_set_lines(buf, 6, 7, false, {})
  log("ok value completion: %s", table.concat(vlabels, " "))

  -- Document symbols are named by what they serve.
  local syms = request(buf, "textDocument/documentSymbol", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
  local server_name
  for _, s in ipairs(syms or {}) do
    for _, c in ipairs(s.children or {}) do
      if c.name:find("^server") then
        server_name = c.name
      end
    end
  end
  check(server_name == "server example.com", "server symbol %q", tostring(server_name))
  log("ok symbols: %s", server_name)

  -- Code lens: the estimated startup times above "http {" (line 2).
  vim.lsp.codelens.refresh()
  check(vim.wait(timeout, function()
    return #(vim.lsp.codelens.get(buf) or {}) > 0
  end, 20), "no code lens")
  local lens = vim.lsp.codelens.get(buf)[1]
  check(lens.range.start.line == 1 and lens.command and lens.command.title:find("nginx -t ≈", 1, true),
    "code lens %s", vim.inspect(lens))
  log("ok code lens: %s", lens.command.title)

  -- Semantic tokens: "events" on the first line is a directive (keyword,
  -- the legend's first type).
  local st = request(buf, "textDocument/semanticTokens/full", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
  check(st and st.data and #st.data >= 5 and table.concat({ unpack(st.data, 1, 5) }, ",") == "0,0,6,0,0",
    "semantic tokens %s", vim.inspect(st and st.data and { unpack(st.data, 1, 10) }))
  log("ok semantic tokens: %d", #st.data / 5)

  -- Workspace symbols: the server by its name.
  local ws = request(buf, "workspace/symbol", { query = "example.com" })
  check(ws and ws[1] and ws[1].name == "example.com" and ws[1].location.uri == vim.uri_from_bufnr(buf),
    "workspace symbols %s", vim.inspect(ws))
  log("ok workspace symbols")

  -- Inlay hints, once the settings ask for them on a configuration this
  -- small: the listen's socket.
  client.notify("workspace/didChangeConfiguration", { settings = { ["nginx-lint"] = { inlayHints = { minServers = 1 } } } })
  local hints = request(buf, "textDocument/inlayHint", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = position(0, 0), ["end"] = position(#lines(buf), 0) },
  })
  local socket
  for _, h in ipairs(hints or {}) do
    if type(h.label) == "string" and h.label:find("^socket ") then
      socket = h.label
    end
  end
  check(socket == "socket 0.0.0.0:8080", "inlay hints %s", vim.inspect(hints))
  log("ok inlay hints: %s", socket)

  -- The route command: the server answers a URL, and :NginxLintRoute
  -- shows the answer.
  local route = request(buf, "workspace/executeCommand", {
    command = "nginx-lint.route",
    arguments = { vim.uri_from_bufnr(buf), "http://example.com:8080/x" },
  })
  check(route and route.route and route.route.location and route.route.location.name == "/",
    "route: %s", vim.inspect(route))
  vim.cmd("NginxLintRoute http://example.com:8080/x")
  check(vim.wait(timeout, function()
    return vim.fn.execute("messages"):find("GET http://example.com:8080/x", 1, true) ~= nil
  end, 20), ":NginxLintRoute shows no answer: %s", vim.fn.execute("messages"))
  log("ok route: location %s", route.route.location.name)

  -- Go to definition on the include: the editor jumps to the file.
  vim.api.nvim_win_set_cursor(0, { 3, 16 })
  check(vim.api.nvim_get_current_line():find("include", 1, true), "line 3: %q", vim.api.nvim_get_current_line())
  vim.lsp.buf.definition()
  local want = root .. "/snippets/gzip.conf"
  check(vim.wait(timeout, function()
    return vim.api.nvim_buf_get_name(0) == want
  end, 20), "definition: current buffer %q, want %q", vim.api.nvim_buf_get_name(0), want)
  check(vim.bo.filetype == "nginx", "included file filetype %q", vim.bo.filetype)
  log("ok definition: jumped to %s", want)
end

support.run(run)
