-- A scripted editor session against `rulebook lsp` in headless Neovim (.ci/neovim runs it):
-- the file opened holds a misspelt variable; its diagnostic is on the name, the quick fix
-- replaces it and the diagnostic goes, hover and definition answer, a rename edits the
-- uses, semantic tokens come with their legend. Prints one line per
-- step; .ci/neovim compares them with what is expected.
local function wait_for(what, done)
  if not vim.wait(30000, done, 50) then
    print("timeout: " .. what)
    vim.cmd("cquit 1")
  end
end
local function client()
  return vim.lsp.get_active_clients()[1]
end
local function request(method, params)
  local answers = vim.lsp.buf_request_sync(0, method, params, 10000) or {}
  for _, a in pairs(answers) do
    if a.result then return a.result end
  end
end

print("filetype " .. vim.bo.filetype)
wait_for("diagnostics", function() return #vim.diagnostic.get(0) > 0 end)
local d = vim.diagnostic.get(0)[1]
local line = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1]
print(string.format("diagnostic %s on `%s`", d.code, line:sub(d.col + 1, d.end_col)))

-- The quick fix.
vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, d.lnum) }
local actions = request("textDocument/codeAction", params) or {}
print("action " .. (actions[1] and actions[1].title or "none"))
vim.lsp.util.apply_workspace_edit(actions[1].edit, client().offset_encoding)
wait_for("diagnostics cleared", function()
  for _, x in ipairs(vim.diagnostic.get(0)) do
    if x.code == "F0101" then return false end
  end
  return true
end)
print("fixed " .. vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1]:sub(d.col + 1, d.end_col))

-- Hover and definition on the name just fixed.
vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col + 1 })
local hover = request("textDocument/hover", vim.lsp.util.make_position_params())
print("hover " .. ((hover and hover.contents.value or "none"):gsub("\n.*", "")))
local def = request("textDocument/definition", vim.lsp.util.make_position_params())
local target = def and (def.uri or (def[1] and def[1].uri)) or "none"
print("definition " .. vim.fn.fnamemodify(vim.uri_to_fname(target), ":t"))

-- Rename the variable: this buffer's uses change (the others are in files not open).
local params = vim.lsp.util.make_position_params()
params.newName = "Points"
local edit = request("textDocument/rename", params)
vim.lsp.util.apply_workspace_edit(edit, client().offset_encoding)
local line = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1]
print("renamed " .. (line:match("d20Mod%((%w+)%)") or "?"))

-- Semantic tokens: the first line's object name is a `class`.
local tokens = request("textDocument/semanticTokens/full", { textDocument = vim.lsp.util.make_text_document_params() })
local legend = client().server_capabilities.semanticTokensProvider.legend
print("semantic tokens " .. legend.tokenTypes[tokens.data[4] + 1])
vim.cmd("qall!")
