;;; nginx-lint.el --- nginx-lint's language server through eglot  -*- lexical-binding: t -*-
;; Emacs 29+ has eglot built in; on Emacs 28 (Debian 12) install elpa-eglot.
;; A major mode for nginx: elpa-nginx-mode (Debian) or nginx-mode (MELPA);
;; without one, a minimal mode is defined here.
(require 'nginx-mode nil t)
(unless (fboundp 'nginx-mode)
  (define-derived-mode nginx-mode prog-mode "nginx"
    (setq-local comment-start "# ")))
(dolist (re '("/nginx\\.conf\\'" "\\.nginx\\'" "/sites-[^/]*/" "/conf\\.d/[^/]*\\.conf\\'" "/nginx/.*\\.conf\\'"))
  (add-to-list 'auto-mode-alist (cons re 'nginx-mode)))
(require 'eglot)
(add-to-list 'eglot-server-programs '(nginx-mode . ("nginx-lint" "lsp")))
(add-hook 'nginx-mode-hook #'eglot-ensure)
;; eglot sends tab-width as the formatting request's tabSize.
(add-hook 'nginx-mode-hook (lambda () (setq-local tab-width 4)))
