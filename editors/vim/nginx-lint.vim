" nginx-lint's language server in Vim 8.2+ through ALE (Debian: vim-ale).
" Put this in ~/.vimrc (or source it from there).
let g:ale_completion_enabled = 1        " must be set before ALE loads
packadd ale
autocmd BufRead,BufNewFile nginx.conf,*.nginx,*/nginx/*.conf,*/conf.d/*.conf,*/snippets/*.conf,*/sites-*/* set filetype=nginx

" The nearest directory above the file that holds nginx.conf, else the
" file's own directory.
function! NginxLintRoot(buffer) abort
  let l:conf = ale#path#FindNearestFile(a:buffer, 'nginx.conf')
  return empty(l:conf) ? expand('#' . a:buffer . ':p:h') : fnamemodify(l:conf, ':h')
endfunction

call ale#linter#Define('nginx', {
\   'name': 'nginx-lint',
\   'lsp': 'stdio',
\   'executable': 'nginx-lint',
\   'command': '%e lsp',
\   'project_root': function('NginxLintRoot'),
\})
let g:ale_linters = {'nginx': ['nginx-lint']}
" ALE formats with fixers, not through the server: nginx-lint fmt - reads
" standard input (:ALEFix).
let g:ale_fixers = {'nginx': [{buffer -> {'command': 'nginx-lint fmt -'}}]}

autocmd FileType nginx setlocal omnifunc=ale#completion#OmniFunc
autocmd FileType nginx nnoremap <buffer> gd :ALEGoToDefinition<CR>
autocmd FileType nginx nnoremap <buffer> K :ALEHover<CR>
autocmd FileType nginx nnoremap <buffer> <leader>a :ALECodeAction<CR>
