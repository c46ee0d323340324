-- rulebook for Neovim 0.7 and later (vim.lsp.start_client works on every version): the
-- `pcgen` filetype for .lst/.pcc files and one `rulebook lsp` per PCGen root. Tested in CI
-- by .ci/neovim. Settings (docs/editors.md#settings) go in `init_options` below.
-- .lst is `asm` to Vim's own detection: these files are PCGen's (set before it runs).
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = { "*.lst", "*.pcc", "*.LST", "*.PCC" },
  command = "setfiletype pcgen",
})
local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  while dir ~= "/" do
    if vim.fn.isdirectory(dir .. "/system/gameModes") == 1 then return dir end
    dir = vim.fn.fnamemodify(dir, ":h")
  end
  return vim.fn.fnamemodify(file, ":p:h")
end
local clients = {}
vim.api.nvim_create_autocmd("FileType", {
  pattern = "pcgen",
  callback = function(args)
    local root = root_of(vim.api.nvim_buf_get_name(args.buf))
    if not clients[root] then
      clients[root] = vim.lsp.start_client({
        name = "rulebook",
        cmd = { "rulebook", "lsp" },
        root_dir = root,
        init_options = {}, -- e.g. { pcgenRoot = "/opt/pcgen", extraRoots = { "." } }
        workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      })
    end
    vim.lsp.buf_attach_client(args.buf, clients[root])
  end,
})
