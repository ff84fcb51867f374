" Run by check.sh: vim -u ../vim/nginx-lint.vim -S vim-check.vim nginx.conf
" Uses each feature once (the missing ";" on line 8) as a user would, writes
" the steps to $NGINX_LINT_TEST_LOG and exits non-zero if one failed.
let s:out = []
let s:failed = 0
function! s:Check(ok, what) abort
  call add(s:out, (a:ok ? 'ok ' : 'FAIL ') . a:what)
  let s:failed = s:failed || !a:ok
endfunction
function! s:Wait(cond, what) abort
  for i in range(200)
    if eval(a:cond) | break | endif
    sleep 50m
  endfor
  call s:Check(eval(a:cond), a:what)
endfunction
function! s:Codes() abort
  return map(copy(ale#engine#GetLoclist(bufnr(''))), 'v:val.lnum . ":" . get(v:val, "code", "")')
endfunction

call s:Check(&filetype ==# 'nginx', 'filetype ' . &filetype)
call s:Wait('s:Codes() == ["9:NL1001"]', 'diagnostics on open')
call cursor(9, 9)
call feedkeys("1\<CR>", 't')            " picks the first (only) fix in ALE's menu
ALECodeAction
call s:Wait('getline(8) ==# "            root /var/www;"', 'code action applied')
call append(6, 'frobnicate on;')
ALELint
call s:Wait('s:Codes() == ["7:NL2001"]', 'diagnostics after an edit')
let g:ale_hover_to_preview = 1
call cursor(6, 11)
ALEHover
call s:Wait('!empty(filter(range(1, winnr("$")), "getwinvar(v:val, \"&previewwindow\")"))', 'hover opens the preview')
let s:pv = filter(range(1, winnr('$')), 'getwinvar(v:val, "&previewwindow")')
call s:Check(!empty(s:pv) && join(getbufline(winbufnr(s:pv[0]), 1, '$')) =~# 'server_name', 'hover text')
pclose
ALEFix
call s:Wait('getline(7) ==# "        frobnicate on;"', 'formatting (ALEFix)')
write
call cursor(3, 17)
ALEGoToDefinition
call s:Wait('expand("%:p") =~# "/snippets/gzip.conf$"', 'go to definition')
call writefile(s:out, $NGINX_LINT_TEST_LOG)
if s:failed | cquit 1 | else | qall! | endif
