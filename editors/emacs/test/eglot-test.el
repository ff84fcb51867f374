;;; eglot-test.el --- batch eglot against nginx-lint  -*- lexical-binding: t -*-
;; Run by editors/editors_test.go: emacs --batch -l nginx-lint.el -l this.
;; NGINX_LINT_TEST_ROOT is a directory holding nginx.conf and
;; sites-enabled/site.conf. Prints PASS last when every check holds.
(require 'cl-lib)
(require 'eglot)
(defvar nginx-lint-test-failed nil)
(defun nginx-lint-test-check (ok what &rest args)
  (princ (format "%s %s\n" (if ok "ok" "FAIL") (apply #'format what args)))
  (unless ok (setq nginx-lint-test-failed t)))

(let* ((root (file-name-as-directory (getenv "NGINX_LINT_TEST_ROOT")))
       (site (expand-file-name "sites-enabled/site.conf" root)))
  (find-file site)
  (nginx-lint-test-check (derived-mode-p 'nginx-mode) "site.conf is in nginx-mode")
  ;; The project, so eglot's root, is the directory of nginx.conf.
  (let ((pr (project-current)))
    (nginx-lint-test-check (and pr (equal (expand-file-name (project-root pr)) root))
                           "project root %S, want %S" (and pr (project-root pr)) root))
  ;; eglot-ensure (the mode hook) starts the server after the command
  ;; that opened the file: batch Emacs runs no command loop, so run
  ;; post-command-hook by hand, then wait for the server.
  (run-hooks 'post-command-hook)
  (let ((deadline (+ (float-time) 60)))
    (while (and (not (eglot-current-server)) (< (float-time) deadline))
      (accept-process-output nil 0.2)))
  (let ((server (eglot-current-server)))
    (nginx-lint-test-check server "eglot started nginx-lint")
    (when server
      (nginx-lint-test-check (equal (expand-file-name (project-root (eglot--project server))) root)
                             "the server's project is nginx.conf's directory")
      ;; From "backend" in proxy_pass http://backend: upstream Backend,
      ;; in nginx.conf (the site file is read where nginx.conf includes it).
      (goto-char (point-min))
      (search-forward "http://back")
      (let* ((locs (jsonrpc-request server :textDocument/definition
                                    (eglot--TextDocumentPositionParams)))
             (loc (and (> (length locs) 0) (aref locs 0)))
             (uri (and loc (plist-get loc :uri))))
        (nginx-lint-test-check (and uri (string-suffix-p "/nginx.conf" uri)
                                    (= 2 (plist-get (plist-get (plist-get loc :range) :start) :line)))
                               "definition from proxy_pass: %S" locs))
      ;; Completion after "$": every item's textEdit starts at the "$",
      ;; which eglot takes as the prefix.
      (goto-char (point-min))
      (search-forward "$ho")
      (let* ((res (jsonrpc-request server :textDocument/completion
                                   (eglot--TextDocumentPositionParams)))
             (items (if (vectorp res) res (plist-get res :items)))
             (host (cl-find "$host" items :key (lambda (i) (plist-get i :label)) :test #'equal))
             (start (and host (plist-get (plist-get (plist-get (plist-get host :textEdit) :range) :start) :character))))
        (nginx-lint-test-check (and host (= start (- (current-column) 3)))
                               "$host item with a textEdit from the $: %S" host))
      ;; Declaration, as eglot-find-declaration asks it: the upstream.
      (goto-char (point-min))
      (search-forward "http://back")
      (let* ((xrefs (eglot--lsp-xrefs-for-method :textDocument/declaration))
             (loc (and xrefs (xref-item-location (car xrefs)))))
        (nginx-lint-test-check (and loc (string-suffix-p "/nginx.conf" (xref-file-location-file loc))
                                    (= 3 (xref-file-location-line loc)))
                               "declaration from proxy_pass: %S" xrefs))
      ;; Workspace symbols, as xref-find-apropos asks them.
      (let* ((xrefs (xref-backend-apropos 'eglot "Backend"))
             (files (mapcar (lambda (x) (file-name-nondirectory (xref-file-location-file (xref-item-location x)))) xrefs)))
        (nginx-lint-test-check (equal files '("nginx.conf")) "workspace symbols for Backend: %S" xrefs))
      ;; Formatting a region (rangeFormatting): the server_name line is
      ;; indented, the root line below it left as it is.
      (goto-char (point-min))
      (search-forward "server_name")
      (eglot-format (line-beginning-position) (line-end-position))
      (nginx-lint-test-check (and (save-excursion (goto-char (point-min)) (search-forward "\n    server_name a;\n" nil t))
                                  (save-excursion (goto-char (point-min)) (search-forward "\n      root /srv;\n" nil t)))
                             "after formatting a region: %S" (buffer-string))
      (ignore-errors (eglot-shutdown server))))
  ;; A snippet outside any directory named nginx is in nginx-mode.
  (find-file (expand-file-name "../../srv/site/snippets/ssl.conf" root))
  (nginx-lint-test-check (derived-mode-p 'nginx-mode) "%s is in nginx-mode (%s)" buffer-file-name major-mode))
(princ (if nginx-lint-test-failed "FAIL\n" "PASS\n"))
(kill-emacs (if nginx-lint-test-failed 1 0))
