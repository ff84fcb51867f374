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
      (ignore-errors (eglot-shutdown server)))))
(princ (if nginx-lint-test-failed "FAIL\n" "PASS\n"))
(kill-emacs (if nginx-lint-test-failed 1 0))
