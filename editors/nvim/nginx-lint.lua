-- nginx-lint language server for Neovim's built-in client (0.10+).
-- Put this file in ~/.config/nvim/plugin/ (or require it from init.lua).
vim.filetype.add({
  pattern = {
    [".*/nginx/.*%.conf"] = "nginx",
    [".*/sites%-available/.*"] = "nginx",
    [".*/sites%-enabled/.*"] = "nginx",
  },
  filename = { ["nginx.conf"] = "nginx" },
})

vim.api.nvim_create_autocmd("FileType", {
  pattern = "nginx",
  callback = function(args)
    vim.lsp.start({
      name = "nginx-lint",
      cmd = { "nginx-lint", "lsp" },
      root_dir = vim.fs.root(args.buf, { "nginx.conf", ".nginx-lint.yaml", ".git" }),
    })
  end,
})
