-- What the headless Neovim tests share: their environment, a step log,
-- checks, the nginx-lint client of a buffer, a bounded request and the
-- end of a run. Loaded by lsp_test.lua and typing_test.lua with dofile,
-- from the directory they are in.
local M = {}

M.root = assert(os.getenv("NGINX_LINT_TEST_ROOT"), "NGINX_LINT_TEST_ROOT unset")
local out = assert(io.open(assert(os.getenv("NGINX_LINT_TEST_LOG"), "NGINX_LINT_TEST_LOG unset"), "w"))

-- timeout bounds every wait and request, in milliseconds; a test may
-- raise it before its first request.
M.timeout = 10000

function M.log(fmt, ...)
  out:write(string.format(fmt, ...), "\n")
  out:flush()
end

-- check fails the step that called it when cond is false.
function M.check(cond, fmt, ...)
  if not cond then
    error(string.format(fmt, ...), 2)
  end
end

-- clients lists the nginx-lint clients attached to bufnr, with the API of
-- the Neovim at hand (get_clients from 0.10, buf_get_clients before).
function M.clients(bufnr)
  local list
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients({ bufnr = bufnr })
  else
    list = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  end
  return vim.tbl_filter(function(c)
    return c.name == "nginx-lint"
  end, list)
end

-- request sends one request to the buffer's nginx-lint client and returns
-- its result; no answer within the timeout, or an error, fails the step.
function M.request(bufnr, method, params)
  local res, err = vim.lsp.buf_request_sync(bufnr, method, params, M.timeout)
  M.check(res ~= nil, "%s: no answer (%s)", method, tostring(err))
  for _, r in pairs(res) do
    M.check(r.error == nil, "%s: error %s", method, vim.inspect(r.error))
    return r.result
  end
  error(method .. ": empty answer")
end

-- run calls steps, logs PASS or the failure with its traceback, and
-- quits Neovim with the matching exit code.
function M.run(steps)
  local ok, err = xpcall(steps, debug.traceback)
  if ok then
    M.log("PASS")
    out:close()
    vim.cmd("qall!")
  else
    M.log("FAIL: %s", err)
    out:close()
    vim.cmd("cquit 1")
  end
end

return M
