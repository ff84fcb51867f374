;;; eglot-typing-test.el --- batch eglot: typing and several files  -*- lexical-binding: t -*-
;; Run by editors/typing_test.go: emacs --batch -l nginx-lint.el -l this.
;; NGINX_LINT_TEST_ROOT is a directory named nginx holding typing/nginx.conf,
;; main/nginx.conf with main/snippets/vars.conf, nginx.conf with
;; conf.d/app.conf, and disk/nginx.conf with disk/extra.conf (see
;; typingFiles there). eglot watches the files for the server. Prints PASS
;; last when every check holds.
(require 'cl-lib)
(require 'eglot)
(defvar nginx-lint-test-failed nil)
(defun nginx-lint-test-check (ok what &rest args)
  (princ (format "%s %s\n" (if ok "ok" "FAIL") (apply #'format what args)))
  (unless ok (setq nginx-lint-test-failed t))
  ok)

;; Every publication, by URI: the newest diagnostics and how many came.
(defvar nginx-lint-test-diags (make-hash-table :test 'equal))
(defvar nginx-lint-test-count (make-hash-table :test 'equal))
(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
  (puthash uri diagnostics nginx-lint-test-diags)
  (puthash uri (1+ (gethash uri nginx-lint-test-count 0)) nginx-lint-test-count))

(defun nginx-lint-test-wait (pred &optional secs)
  "Wait up to SECS (15) for PRED, running timers, process output and the
special events a command loop would read (file notifications: batch
Emacs has no command loop, and eglot's file watches report through them)."
  (let ((deadline (+ (float-time) (or secs 15))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.02)
      (read-event nil nil 0.02))
    (funcall pred)))

(defun nginx-lint-test-codes (&optional buffer)
  "The codes of BUFFER's newest diagnostics, as CODE@LINE (0-based)."
  (with-current-buffer (or buffer (current-buffer))
    (let ((uri (eglot--path-to-uri (buffer-file-name))))
      (sort (mapcar (lambda (d)
                      (format "%s@%s" (plist-get d :code)
                              (plist-get (plist-get (plist-get d :range) :start) :line)))
                    (gethash uri nginx-lint-test-diags []))
            #'string<))))

(defun nginx-lint-test-has (code &optional below buffer)
  (cl-some (lambda (c)
             (let ((parts (split-string c "@")))
               (and (equal (car parts) code)
                    (> (string-to-number (cadr parts)) (or below -1)))))
           (nginx-lint-test-codes buffer)))

(defun nginx-lint-test-open (file)
  "Visit FILE and wait for eglot to manage it."
  (find-file file)
  (run-hooks 'post-command-hook)
  (nginx-lint-test-wait (lambda () (eglot-current-server)) 60)
  (nginx-lint-test-check (eglot-current-server) "eglot manages %s" (file-name-nondirectory file))
  (current-buffer))

(defun nginx-lint-test-flush ()
  "Send the buffer's edits now, as eglot does when typing pauses."
  (eglot--signal-textDocument/didChange))

(defun nginx-lint-test-at (line sub &optional back)
  "Move to SUB on 1-based LINE, BACK characters before its end."
  (goto-char (point-min))
  (forward-line (1- line))
  (search-forward sub (line-end-position))
  (backward-char (or back 0)))

(defun nginx-lint-test-request (method &optional params)
  (jsonrpc-request (eglot-current-server) method (or params (eglot--TextDocumentPositionParams))))

(defun nginx-lint-test-definition (line sub back)
  "The first location of the definition at SUB on LINE, or nil."
  (nginx-lint-test-at line sub back)
  (let ((locs (nginx-lint-test-request :textDocument/definition)))
    (and (> (length locs) 0) (aref locs 0))))

(defun nginx-lint-test-def-line (line sub back)
  (let ((loc (nginx-lint-test-definition line sub back)))
    (and loc (plist-get (plist-get (plist-get loc :range) :start) :line))))

(defun nginx-lint-test-names (syms)
  (apply #'append (mapcar (lambda (s) (cons (plist-get s :name) (nginx-lint-test-names (plist-get s :children))))
                          syms)))

(defun nginx-lint-test-typing (root)
  (let* ((buf (nginx-lint-test-open (expand-file-name "typing/nginx.conf" root)))
         (base (buffer-string)))
    (nginx-lint-test-wait (lambda () (null (nginx-lint-test-codes buf))))
    (dolist (typed '("        server_tokens " "        include " "        set $y" "        proxy_pass http://"
                     "        if ($request_method = POST) {" "        }" "        add_header X \"abc"))
      (let ((uri (eglot--path-to-uri (buffer-file-name))))
        (goto-char (point-min))
        (forward-line 6)
        (insert typed "\n")
        (nginx-lint-test-flush)
        (nginx-lint-test-check
         (nginx-lint-test-wait (lambda () (or (nginx-lint-test-has "NL1001") (nginx-lint-test-has "NL1002"))))
         "%S: a syntax finding: %S" typed (nginx-lint-test-codes))
        (dolist (code '("NL2035" "NL2002" "NL2001"))
          (nginx-lint-test-check (not (nginx-lint-test-has code 7)) "%S: no %s below the typing: %S" typed code (nginx-lint-test-codes)))
        (nginx-lint-test-check (equal (nginx-lint-test-def-line 9 "backend" 2) 2) "%S: definition of backend" typed)
        (nginx-lint-test-check (equal (nginx-lint-test-def-line 10 "$x" 1) 5) "%S: definition of $x" typed)
        (nginx-lint-test-check (equal (nginx-lint-test-def-line 11 "@fb" 1) 12) "%S: definition of @fb" typed)
        (nginx-lint-test-at 9 "backend" 2)
        (let ((refs (nginx-lint-test-request :textDocument/references
                                             (append (eglot--TextDocumentPositionParams) '(:context (:includeDeclaration t))))))
          (nginx-lint-test-check (= (length refs) 2) "%S: references of backend: %d" typed (length refs)))
        (goto-char (point-min))
        (forward-line 9)
        (move-to-column 12)
        (let* ((res (nginx-lint-test-request :textDocument/completion))
               (items (if (vectorp res) res (plist-get res :items))))
          (nginx-lint-test-check (and (> (length items) 500)
                                      (cl-find "proxy_pass" items :key (lambda (i) (plist-get i :label)) :test #'equal))
                                 "%S: completion in the location: %d items" typed (length items)))
        (let* ((syms (nginx-lint-test-request :textDocument/documentSymbol `(:textDocument ,(eglot--TextDocumentIdentifier))))
               (outline (mapconcat #'identity (nginx-lint-test-names syms) ", ")))
          (nginx-lint-test-check (string-match-p (regexp-quote "location /, location @fb") outline)
                                 "%S: outline %s" typed outline))
        (erase-buffer)
        (insert base)
        (nginx-lint-test-flush)
        (nginx-lint-test-check (nginx-lint-test-wait (lambda () (null (nginx-lint-test-codes))))
                               "%S undone: %S" typed (nginx-lint-test-codes))
        (ignore uri)))
    (set-buffer-modified-p nil)))

(defun nginx-lint-test-files (root)
  ;; A set in an open included snippet clears main/nginx.conf's unknown
  ;; variable.
  (let ((main (nginx-lint-test-open (expand-file-name "main/nginx.conf" root))))
    (nginx-lint-test-check (nginx-lint-test-wait (lambda () (nginx-lint-test-has "NL2035" nil main)))
                           "main/nginx.conf: unknown variable: %S" (nginx-lint-test-codes main))
    (let ((snip (nginx-lint-test-open (expand-file-name "main/snippets/vars.conf" root))))
      (goto-char (point-min))
      (forward-line 1)
      (insert "set $from_snippet 1;\n")
      (nginx-lint-test-flush)
      (nginx-lint-test-check (nginx-lint-test-wait (lambda () (not (nginx-lint-test-has "NL2035" nil main))))
                             "main/nginx.conf after the snippet's set: %S" (nginx-lint-test-codes main))
      (with-current-buffer main
        (let ((loc (nginx-lint-test-definition 6 "$from" 2)))
          (nginx-lint-test-check (and loc (string-suffix-p "snippets/vars.conf" (plist-get loc :uri))
                                      (= 1 (plist-get (plist-get (plist-get loc :range) :start) :line)))
                                 "definition of $from_snippet: %S" loc)))
      (with-current-buffer snip (set-buffer-modified-p nil))))
  ;; An upstream moved in an open nginx.conf: the open app.conf follows.
  (let ((pool (nginx-lint-test-open (expand-file-name "nginx.conf" root)))
        (app (nginx-lint-test-open (expand-file-name "conf.d/app.conf" root))))
    (nginx-lint-test-check (equal (nginx-lint-test-def-line 3 "backend" 2) 2) "definition of backend before")
    (with-current-buffer pool
      (goto-char (point-min))
      (forward-line 2)
      (insert "    # the pool\n    # of app servers\n")
      (nginx-lint-test-flush)
      (set-buffer-modified-p nil))
    (with-current-buffer app
      (nginx-lint-test-check (nginx-lint-test-wait (lambda () (equal (nginx-lint-test-def-line 3 "backend" 2) 4)))
                             "definition of backend after nginx.conf moved it: %S" (nginx-lint-test-def-line 3 "backend" 2))))
  ;; A file changed on disk by another program: eglot's watch tells the
  ;; server.
  (let ((disk (nginx-lint-test-open (expand-file-name "disk/nginx.conf" root))))
    (nginx-lint-test-wait (lambda () (gethash (eglot--path-to-uri (buffer-file-name disk)) nginx-lint-test-diags)))
    (nginx-lint-test-check (null (nginx-lint-test-codes disk)) "disk/nginx.conf on open: %S" (nginx-lint-test-codes disk))
    (with-temp-file (expand-file-name "disk/extra.conf" root)
      (insert "map $uri $w { default a; }\n"))
    (nginx-lint-test-check (nginx-lint-test-wait (lambda () (nginx-lint-test-has "NL2035" nil disk)) 30)
                           "disk/nginx.conf after extra.conf changed on disk: %S" (nginx-lint-test-codes disk))))

(let ((root (file-name-as-directory (getenv "NGINX_LINT_TEST_ROOT"))))
  (condition-case err
      (progn
        (nginx-lint-test-typing root)
        (nginx-lint-test-files root))
    (error (nginx-lint-test-check nil "error: %S" err)))
  (dolist (s (hash-table-values eglot--servers-by-project))
    (dolist (server s) (ignore-errors (eglot-shutdown server)))))
(princ (if nginx-lint-test-failed "FAIL\n" "PASS\n"))
(kill-emacs (if nginx-lint-test-failed 1 0))
