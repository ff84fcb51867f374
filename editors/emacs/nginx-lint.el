;;; nginx-lint.el --- nginx-lint's language server through eglot  -*- lexical-binding: t -*-
;; Emacs 29+ has eglot built in; on Emacs 28 (Debian 12) install elpa-eglot.
;; A major mode for nginx: elpa-nginx-mode (Debian) or nginx-mode (MELPA);
;; without one, a minimal mode is defined here.
(require 'nginx-mode nil t)
(unless (fboundp 'nginx-mode)
  (define-derived-mode nginx-mode prog-mode "nginx"
    (setq-local comment-start "# ")))
(dolist (re '("/nginx\\.conf\\'" "\\.nginx\\'" "/sites-[^/]*/" "/conf\\.d/[^/]*\\.conf\\'"
              "/snippets/[^/]*\\.conf\\'" "/nginx/.*\\.conf\\'"))
  (add-to-list 'auto-mode-alist (cons re 'nginx-mode)))
(require 'eglot)
;; eglot starts one server per project. Without a root marker each
;; directory is one, so /etc/nginx/sites-enabled/x would be linted alone,
;; not in the nginx.conf that includes it: the project of an nginx buffer
;; is the directory of the nearest nginx.conf above it.
(defun nginx-lint-project (dir)
  "The project of DIR for an nginx buffer: the directory of the nearest
nginx.conf above DIR, as a transient project; nil elsewhere."
  (when (derived-mode-p 'nginx-mode)
    (let ((root (locate-dominating-file dir "nginx.conf")))
      (when root
        (cons 'transient (file-name-as-directory (expand-file-name root)))))))
(add-hook 'project-find-functions #'nginx-lint-project)
(add-to-list 'eglot-server-programs '(nginx-mode . ("nginx-lint" "lsp")))
(add-hook 'nginx-mode-hook #'eglot-ensure)
;; eglot sends tab-width as the formatting request's tabSize.
(add-hook 'nginx-mode-hook (lambda () (setq-local tab-width 4)))
