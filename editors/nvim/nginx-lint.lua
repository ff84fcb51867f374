-- nginx-lint for Neovim's built-in LSP client, Neovim 0.7 to the newest.
--
-- Put this file in ~/.config/nvim/plugin/ (or `dofile` it from init.lua).
-- It marks nginx files (filetype "nginx") and starts `nginx-lint lsp` for
-- them. Every feature needs a newer Neovim API only where one exists, so the
-- file is feature-detected, never version-pinned:
--   0.11+  vim.lsp.config + vim.lsp.enable
--   0.8+   vim.filetype.add, vim.lsp.start from a FileType autocmd
--   0.7    filetype autocmds, vim.lsp.start_client + vim.lsp.buf_attach_client
--
-- Optional, before this file runs:
--   vim.g.nginx_lint_cmd = { "/path/to/nginx-lint", "lsp" }
--   vim.g.nginx_lint_init_options = { rules = { ["version-disclosure"] = "off" } }
--   vim.g.nginx_lint_lsp = false   -- filetypes only (nvim-lspconfig starts the server)
if vim.g.loaded_nginx_lint then
  return
end
vim.g.loaded_nginx_lint = true

local name = "nginx-lint"
-- The nearest directory holding one of these is the workspace root.
local markers = { ".nginx-lint.yaml", ".nginx-lint.yml", "nginx.conf", ".git" }

-- Filetype detection. Neovim's own rules already know nginx.conf and
-- /etc/nginx; these add the layouts that a checkout of a config uses
-- (Debian's sites-*/, conf.d/ and snippets/, wherever the checkout is), as
-- the VS Code extension and nginx-lint.el do.
if vim.filetype and vim.filetype.add and vim.fn.has("nvim-0.8") == 1 then
  vim.filetype.add({
    extension = { nginx = "nginx" },
    filename = { ["nginx.conf"] = "nginx" },
    pattern = {
      [".*/sites%-[^/]+/[^/]+"] = "nginx",
      [".*/conf%.d/[^/]+%.conf"] = "nginx",
      [".*/snippets/[^/]+%.conf"] = "nginx",
      [".*/nginx/.*%.conf"] = "nginx",
    },
  })
else
  -- 0.7: vim.filetype.add only feeds the opt-in filetype.lua there.
  -- "set filetype" (not "setf") wins over the generic *.conf guess.
  local group = vim.api.nvim_create_augroup("nginx_lint_filetype", { clear = true })
  vim.api.nvim_create_autocmd({ "BufNewFile", "BufRead" }, {
    group = group,
    -- In autocmd patterns "*" also matches "/", so */nginx/*.conf is nginx/**/*.conf.
    pattern = { "nginx.conf", "*.nginx", "*/sites-*/*", "*/conf.d/*.conf", "*/snippets/*.conf", "*/nginx/*.conf" },
    callback = function()
      vim.bo.filetype = "nginx"
    end,
  })
end

-- :NginxLintRoute URL routes a URL through the configuration of the
-- current buffer (the server's nginx-lint.route command) and shows the
-- answer: the server, the location, each redirect and the handler, as
-- `nginx-lint route` prints them.
vim.api.nvim_create_user_command("NginxLintRoute", function(opts)
  local bufnr = vim.api.nvim_get_current_buf()
  local params = { command = "nginx-lint.route", arguments = { vim.uri_from_bufnr(bufnr), opts.args } }
  vim.lsp.buf_request(bufnr, "workspace/executeCommand", params, function(err, result)
    if err then
      vim.notify("nginx-lint: " .. (err.message or tostring(err)), vim.log.levels.ERROR)
    elseif type(result) == "table" and result.text then
      vim.api.nvim_echo({ { result.text } }, true, {})
    end
  end)
end, { nargs = 1, desc = "Route a URL through this nginx configuration (nginx-lint)" })

if vim.g.nginx_lint_lsp == false then
  return
end

local function cmd()
  return vim.g.nginx_lint_cmd or { "nginx-lint", "lsp" }
end

-- root_dir finds the nearest directory above the buffer's file that holds
-- a marker, with vim.loop only (vim.fs.root is 0.10+); the file's own
-- directory if none does.
local function root_dir(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == "" then
    return vim.loop.cwd()
  end
  local dir = vim.fn.fnamemodify(path, ":p:h")
  local start = dir
  while true do
    for _, m in ipairs(markers) do
      if vim.loop.fs_stat(dir .. "/" .. m) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local function config(root)
  return {
    name = name,
    cmd = cmd(),
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = vim.g.nginx_lint_init_options,
  }
end

if vim.lsp.config and vim.lsp.enable then
  -- 0.11+: the client is configured once and started for each nginx buffer.
  vim.lsp.config(name, {
    cmd = cmd(),
    filetypes = { "nginx" },
    root_markers = markers,
    init_options = vim.g.nginx_lint_init_options,
  })
  vim.lsp.enable(name)
  return
end

local group = vim.api.nvim_create_augroup("nginx_lint_lsp", { clear = true })

if vim.lsp.start then
  -- 0.8 to 0.10: vim.lsp.start reuses the client of the same name and root.
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "nginx",
    callback = function(args)
      vim.lsp.start(config(root_dir(args.buf)), { bufnr = args.buf })
    end,
  })
  return
end

-- 0.7: one client per root, started by hand and attached to each buffer.
local clients = {}
vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "nginx",
  callback = function(args)
    local root = root_dir(args.buf)
    local id = clients[root]
    if id == nil or vim.lsp.get_client_by_id(id) == nil then
      local c = config(root)
      c.on_exit = function()
        clients[root] = nil
      end
      id = vim.lsp.start_client(c)
      if id == nil then
        vim.notify("nginx-lint: cannot start " .. table.concat(c.cmd, " "), vim.log.levels.ERROR)
        return
      end
      clients[root] = id
    end
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
