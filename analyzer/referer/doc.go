// Package referer reads valid_referers as ngx_http_referer_module does:
// its hosts go into a hash of host names (ngx_hash_add_key with
// wildcards, grammar.HashKeys, as server names do), which refuses an
// invalid hostname or wildcard and a host the block already has; the
// block's merge adds the server's names when it says "server_names"; and
// "none" or "blocked" needs a host beside it. Problems lists what nginx
// refuses, once per run, for the three rules that report a kind each.
package referer
