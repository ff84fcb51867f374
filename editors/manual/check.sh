#!/usr/bin/env bash
# Checks the Emacs (eglot) and Vim (ALE) configurations in ../emacs and
# ../vim by hand, against the nginx-lint built from this checkout: each
# opens a configuration with an error and uses diagnostics, a quick fix,
# formatting, hover, completion (Emacs) and go to definition.
#   editors/manual/check.sh emacs   # needs emacs-nox, elpa-eglot (Emacs 28), elpa-nginx-mode
#   editors/manual/check.sh vim     # needs vim, vim-ale
# Not part of CI (neither editor is installed there).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/../.." && go build -o "$tmp/bin/nginx-lint" ./cmd/nginx-lint)
root="$tmp/etc/nginx"
mkdir -p "$root/snippets"
cat > "$root/nginx.conf" <<'CONF'
events {}
http {
    include snippets/gzip.conf;
    server {
        listen 8080;
        server_name example.com;
        location / {
            root /var/www
        }
    }
}
CONF
echo 'gzip on;' > "$root/snippets/gzip.conf"
export PATH="$tmp/bin:$PATH" HOME="$tmp/home" NGINX_LINT_TEST_ROOT="$root" NGINX_LINT_TEST_LOG="$tmp/steps.log"
mkdir -p "$HOME"
cd "$root"
case "${1:-}" in
emacs)
	timeout 120 emacs --batch -l "$here/../emacs/nginx-lint.el" -l "$here/emacs-check.el" 2>&1 | grep -E '^(ok|FAIL)|error|timeout'
	exit "${PIPESTATUS[0]}"
	;;
vim)
	status=0
	timeout 120 vim --cmd 'set nocompatible' -u "$here/../vim/nginx-lint.vim" -i NONE --not-a-term \
		-S "$here/vim-check.vim" nginx.conf </dev/null >/dev/null 2>&1 || status=$?
	cat "$NGINX_LINT_TEST_LOG" 2>/dev/null || echo "no steps written"
	exit "$status"
	;;
*)
	echo "usage: $0 emacs|vim" >&2
	exit 2
	;;
esac
