-- editor.nvim: Neovim's own LSP client (headless) with docs/editors.md's
-- init.lua, which starts q7cc-clangd for C++ buffers, on a kernel file of a
-- folder whose compile_commands.json names q7cc-gnu. Run by nvim.sh, which
-- sets Q7_FILE, Q7_OUT and the init.lua.
--   1. opening the file publishes q7-unsupported-param on the kernel's
--      line beside clangd's error for an undeclared name;
--   2. an unsaved edit that fixes the parameter clears it (clangd's stays);
--   3. hover on the kernel's name shows its schema;
--   4. the code lens above the kernel shows it too, refreshed as the page's
--      init.lua asks for it (leaving insert mode);
--   5. the pointer put back, the quick fix (vim.lsp.buf.code_action, the
--      choice made by a stand-in for vim.ui.select) takes it out again.
local out = assert(io.open(os.getenv('Q7_OUT'), 'w'))
local function finish(ok, msg)
  out:write(msg .. '\n')
  out:close()
  vim.cmd(ok and 'qall!' or 'cquit!')
end
local function check(cond, msg)
  if not cond then finish(false, 'FAIL: ' .. msg) end
end

local file = os.getenv('Q7_FILE')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = 'cpp' -- no filetype plugin: the FileType event, as it would come
local client
check(vim.wait(10000, function()
  for id, c in pairs(vim.lsp.buf_get_clients(buf)) do
    if c.name == 'q7cc-clangd' then client = id end
  end
  return client ~= nil
end, 20), "the page's init.lua attached no q7cc-clangd client")

local function ours(d) return d.source == 'q7cc' end
local function find(pred)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if pred(d) then return d end
  end
end
local function undeclared(d) return d.source ~= 'q7cc' and d.message:find('nope', 1, true) end
local function describe()
  local t = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    t[#t + 1] = string.format('%d:%d %s %s %s', d.lnum, d.col, d.source or '', tostring(d.code), d.message)
  end
  return table.concat(t, '\n')
end

-- 1. Both findings, q7cc's on line 4 (lnum 3) with its rule as code.
check(vim.wait(30000, function() return find(ours) and find(undeclared) end, 20),
      'no q7cc finding beside clangd\'s error:\n' .. describe())
local d = find(ours)
check(d.code == 'q7-unsupported-param' and d.lnum == 3 and d.severity == vim.diagnostic.severity.ERROR,
      'q7cc finding: ' .. describe())

-- 2. The fix, unsaved: the finding goes, clangd's error stays.
local line = vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1]
vim.api.nvim_buf_set_lines(buf, 3, 4, false, {(line:gsub('float %*by', 'float by'))})
check(vim.wait(30000, function() return not find(ours) and find(undeclared) end, 20),
      'the fixed finding stayed:\n' .. describe())
check(vim.bo[buf].modified, 'the buffer was saved')

-- 3. Hover on the kernel's name.
local col = line:find('scale', 1, true)
local value
vim.wait(10000, function()
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    position = {line = 3, character = col},
  }, 5000)
  local r = res and res[client] and res[client].result
  value = r and r.contents and r.contents.value or ''
  return value:find('scale(Tensor x, float by) -> Tensor', 1, true) ~= nil
end, 100)
check(value:find('scale(Tensor x, float by) -> Tensor', 1, true), 'hover: ' .. tostring(value))

-- 4. The code lens, as the page's init.lua refreshes it.
vim.cmd('doautocmd InsertLeave')
local lens
check(vim.wait(10000, function()
  lens = (vim.lsp.codelens.get(buf) or {})[1]
  return lens and lens.command and lens.command.title:find('scale(Tensor x, float by) -> Tensor', 1, true)
end, 50), 'code lens: ' .. vim.inspect(lens))

-- 5. The quick fix.
vim.api.nvim_buf_set_lines(buf, 3, 4, false, {line})
check(vim.wait(30000, function() return find(ours) end, 20), 'the pointer back: ' .. describe())
vim.api.nvim_win_set_cursor(0, {4, 0})
local offered = {}
vim.ui.select = function(items, _, on_choice)
  for i, item in ipairs(items) do
    offered[#offered + 1] = item[2].title
    if item[2].title:find('^q7cc: ') then return on_choice(item, i) end
  end
  on_choice(nil, nil)
end
vim.lsp.buf.code_action()
check(vim.wait(30000, function()
  return vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1]:find('float by', 1, true) and not find(ours)
end, 20), 'the quick fix (offered: ' .. table.concat(offered, '; ') .. '): ' ..
  vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1] .. '\n' .. describe())

vim.lsp.stop_client(client)
vim.wait(5000, function() return vim.lsp.client_is_stopped(client) end, 20)
finish(true, 'ok')
