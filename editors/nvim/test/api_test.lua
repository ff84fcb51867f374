-- The branches of nginx-lint.lua for Neovim APIs newer than the Neovim
-- running the test (Debian 12 ships 0.7.2, which lsp_test.lua drives for
-- real). Run by ../../editors_test.go as
--   nvim --headless -u NONE -c "luafile api_test.lua"
-- with $NGINX_LINT_PLUGIN the shipped file and $NGINX_LINT_TEST_ROOT a
-- directory holding nginx.conf. For each API level it stands in recording
-- stubs for the functions that level adds (and hides the ones it lacks),
-- loads the plugin, opens a file and checks which functions were called
-- with what. This checks the feature detection and the arguments, not the
-- newer Neovim itself.
local plugin = assert(os.getenv("NGINX_LINT_PLUGIN"), "NGINX_LINT_PLUGIN unset")
local root = assert(os.getenv("NGINX_LINT_TEST_ROOT"), "NGINX_LINT_TEST_ROOT unset")
local out = assert(io.open(assert(os.getenv("NGINX_LINT_TEST_LOG"), "NGINX_LINT_TEST_LOG unset"), "w"))

local function check(cond, fmt, ...)
  if not cond then
    error(string.format(fmt, ...), 2)
  end
end

local real = {
  has = vim.fn.has,
  filetype = vim.filetype,
  start_client = vim.lsp.start_client,
  buf_attach_client = vim.lsp.buf_attach_client,
}

-- level installs the API of one Neovim generation and returns the log of
-- calls the plugin makes.
local function level(version)
  local calls = {}
  local function record(name)
    return function(...)
      table.insert(calls, { name = name, args = { ... } })
      return 1
    end
  end
  vim.g.loaded_nginx_lint = nil
  pcall(vim.api.nvim_del_augroup_by_name, "nginx_lint_filetype")
  pcall(vim.api.nvim_del_augroup_by_name, "nginx_lint_lsp")
  rawset(vim.fn, "has", function(feature)
    local minor = feature:match("^nvim%-0%.(%d+)")
    if minor then
      return tonumber(minor) <= version and 1 or 0
    end
    return real.has(feature)
  end)
  rawset(vim, "filetype", version >= 8 and { add = record("filetype.add") } or real.filetype)
  rawset(vim.lsp, "start", version >= 8 and record("lsp.start") or nil)
  rawset(vim.lsp, "enable", version >= 11 and record("lsp.enable") or nil)
  rawset(vim.lsp, "config", version >= 11 and setmetatable({}, { __call = function(_, ...)
    return record("lsp.config")(...)
  end }) or nil)
  rawset(vim.lsp, "start_client", record("lsp.start_client"))
  rawset(vim.lsp, "buf_attach_client", record("lsp.buf_attach_client"))
  -- The stub start_client's client (id 1) stays alive.
  rawset(vim.lsp, "get_client_by_id", function(id)
    return id == 1 and { id = 1 } or nil
  end)
  return calls
end

local function find(calls, name)
  for _, c in ipairs(calls) do
    if c.name == name then
      return c
    end
  end
end

local function open(path)
  vim.cmd("silent! %bwipeout!")
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  vim.bo.filetype = "nginx" -- filetype detection is real Neovim's; this checks the LSP part
end

local function run()
  -- 0.11 and newer: vim.lsp.config + vim.lsp.enable, nothing at FileType.
  local calls = level(11)
  dofile(plugin)
  local add = find(calls, "filetype.add")
  check(add and add.args[1].filename["nginx.conf"] == "nginx" and add.args[1].extension.nginx == "nginx",
    "0.11: filetype.add %s", vim.inspect(add))
  -- vim.filetype.add matches patterns against the full path, anchored.
  local function detected(path)
    for pat, ft in pairs(add.args[1].pattern) do
      if path:match("^" .. pat .. "$") then
        return ft
      end
    end
    return false
  end
  for path, want in pairs({
    ["/etc/nginx/sites-enabled/default"] = "nginx",
    ["/srv/app/conf.d/app.conf"] = "nginx",
    ["/srv/app/snippets/ssl.conf"] = "nginx",
    ["/srv/app/snippets/a/b.conf"] = false,
    ["/home/u/nginx/a/b/c.conf"] = "nginx",
    ["/srv/app/other/app.conf"] = false,
    ["/etc/nginx/nginx.conf.bak"] = false,
  }) do
    check(detected(path) == want, "0.11: %s detected as %s", path, tostring(detected(path)))
  end
  local cfg = find(calls, "lsp.config")
  check(cfg and cfg.args[1] == "nginx-lint", "0.11: lsp.config %s", vim.inspect(cfg))
  check(vim.deep_equal(cfg.args[2].cmd, { "nginx-lint", "lsp" }) and vim.deep_equal(cfg.args[2].filetypes, { "nginx" }),
    "0.11: config %s", vim.inspect(cfg.args[2]))
  check(vim.tbl_contains(cfg.args[2].root_markers, "nginx.conf"), "0.11: root_markers %s", vim.inspect(cfg.args[2]))
  local enable = find(calls, "lsp.enable")
  check(enable and enable.args[1] == "nginx-lint", "0.11: lsp.enable %s", vim.inspect(enable))
  open(root .. "/nginx.conf")
  check(not find(calls, "lsp.start") and not find(calls, "lsp.start_client"), "0.11 started a client by hand: %s", vim.inspect(calls))
  out:write("ok 0.11: vim.lsp.config + vim.lsp.enable\n")

  -- 0.8 to 0.10: vim.filetype.add and vim.lsp.start at FileType.
  calls = level(10)
  dofile(plugin)
  check(find(calls, "filetype.add"), "0.10: no filetype.add")
  check(not find(calls, "lsp.config"), "0.10 used lsp.config")
  open(root .. "/sub/site.conf")
  local start = find(calls, "lsp.start")
  check(start, "0.10: no lsp.start: %s", vim.inspect(calls))
  check(start.args[1].name == "nginx-lint" and start.args[1].root_dir == root,
    "0.10: lsp.start %s (root %s)", vim.inspect(start.args[1]), root)
  check(start.args[2].bufnr == vim.api.nvim_get_current_buf(), "0.10: bufnr %s", vim.inspect(start.args[2]))
  check(not find(calls, "lsp.start_client"), "0.10 used start_client")
  out:write("ok 0.8-0.10: vim.filetype.add + vim.lsp.start\n")

  -- 0.7: autocmds, vim.lsp.start_client once per root, attach per buffer.
  calls = level(7)
  dofile(plugin)
  check(not find(calls, "filetype.add") and not find(calls, "lsp.start"), "0.7 used a newer API: %s", vim.inspect(calls))
  open(root .. "/nginx.conf")
  open(root .. "/sub/site.conf")
  local n = 0
  for _, c in ipairs(calls) do
    if c.name == "lsp.start_client" then
      n = n + 1
      check(c.args[1].root_dir == root, "0.7: root_dir %s", c.args[1].root_dir)
    end
  end
  check(n == 1, "0.7: %d start_client calls, want 1 for one root", n)
  -- Each FileType event attaches again, which buf_attach_client ignores
  -- for a buffer already attached: count buffers.
  local attached, nbuf = {}, 0
  for _, c in ipairs(calls) do
    if c.name == "lsp.buf_attach_client" and not attached[c.args[1]] then
      check(c.args[2] == 1, "0.7: attached to client %s", tostring(c.args[2]))
      attached[c.args[1]], nbuf = true, nbuf + 1
    end
  end
  check(nbuf == 2, "0.7: %d buffers attached, want 2", nbuf)
  out:write("ok 0.7: autocmds + vim.lsp.start_client + vim.lsp.buf_attach_client\n")
end

local ok, err = xpcall(run, debug.traceback)
out:write(ok and "PASS\n" or ("FAIL: " .. err .. "\n"))
out:close()
vim.cmd(ok and "qall!" or "cquit 1")
