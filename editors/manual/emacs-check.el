;; Run by check.sh: emacs --batch -l ../emacs/nginx-lint.el -l emacs-check.el
;; Uses each feature once on $NGINX_LINT_TEST_ROOT/nginx.conf (the missing
;; ";" on line 8) as a user would, and exits non-zero at the first failure.
(setq debug-on-error nil)
(defun check-wait (pred what &optional secs)
  (let ((deadline (+ (float-time) (or secs 10))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred) (error "timeout: %s" what))
    (message "ok %s" what)))
(defun check (ok what &rest args)
  (unless ok (error "FAIL %s" (apply #'format what args)))
  (message "ok %s" (apply #'format what args)))
(defun line-text (n)
  (save-excursion (goto-char (point-min)) (forward-line (1- n))
                  (buffer-substring (line-beginning-position) (line-end-position))))
;; Idle timers (eglot's didChange) do not run in batch mode: send by hand.
(defun sync () (eglot--signal-textDocument/didChange))

(find-file (expand-file-name "nginx.conf" (getenv "NGINX_LINT_TEST_ROOT")))
(check (eq major-mode 'nginx-mode) "major mode %s" major-mode)
(run-hooks 'post-command-hook)           ; eglot-ensure starts on the next command
(check-wait (lambda () (eglot-current-server)) "eglot connected")
(check-wait (lambda () (flymake-start) (flymake-diagnostics)) "diagnostics on open")
(let ((d (car (flymake-diagnostics))))
  (check (= (line-number-at-pos (flymake-diagnostic-beg d)) 9) "diagnostic on line 9: %s" (flymake-diagnostic-text d)))

(goto-char (point-min)) (forward-line 5) (forward-char 10)
(let ((h (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams))))
  (check (string-match-p "server_name" (plist-get (plist-get h :contents) :value)) "hover"))

(let* ((d (car (flymake-diagnostics)))
       (actions (jsonrpc-request (eglot-current-server) :textDocument/codeAction
                  (list :textDocument (eglot--TextDocumentIdentifier)
                        :range (list :start (eglot--pos-to-lsp-position (flymake-diagnostic-beg d))
                                     :end (eglot--pos-to-lsp-position (flymake-diagnostic-end d)))
                        :context (list :diagnostics (vector))))))
  (eglot--apply-workspace-edit (plist-get (aref actions 0) :edit))
  (check (equal (line-text 8) "            root /var/www;") "code action applied: %S" (line-text 8)))
(sync)
(check-wait (lambda () (flymake-start) (null (flymake-diagnostics))) "diagnostics cleared after the fix")

(goto-char (point-min)) (forward-line 6) (insert "frobnicate on;\n") (sync)
(check-wait (lambda () (flymake-start) (flymake-diagnostics)) "diagnostics after an edit")
(eglot-format-buffer)
(check (equal (line-text 7) "        frobnicate on;") "formatting: %S" (line-text 7))

(goto-char (point-min)) (forward-line 7) (end-of-line) (insert "\n            proxy_") (sync)
(let* ((capf (eglot-completion-at-point))
       (cands (all-completions "proxy_" (nth 2 capf))))
  (check (member "proxy_pass" cands) "completion: %d candidates" (length cands)))

(goto-char (point-min)) (forward-line 2) (forward-char 16)
(call-interactively #'xref-find-definitions)
(check (string-suffix-p "/snippets/gzip.conf" buffer-file-name) "definition: %s" buffer-file-name)
(kill-emacs 0)
