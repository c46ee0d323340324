;;; emacs-session.el --- a scripted eglot session against rulebook lsp  -*- lexical-binding: t -*-

;; Run by .ci/emacs in batch Emacs after docs/editors/emacs/rulebook.el: the file opened
;; (the first argument) holds a misspelt variable; its diagnostic reaches Flymake on the
;; name, a quick fix is offered, hover and definition answer. Prints one line per step;
;; .ci/emacs compares them with what is expected.

;;; Code:

(require 'seq)

(defun session-wait (what done)
  "Wait up to 60 s for DONE to return non-nil; fail, naming WHAT, if it does not."
  (let ((deadline (+ (float-time) 60)))
    (while (and (not (funcall done)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall done)
        (progn (princ (format "timeout: %s\n" what)) (kill-emacs 1)))))

(defun session-request (method params)
  "The answer of the buffer's server to METHOD with PARAMS."
  (jsonrpc-request (eglot--current-server-or-lose) method params))

(find-file (pop command-line-args-left))
(princ (format "mode %s\n" major-mode))
;; `eglot-ensure' connects after the command that visited the file; batch Emacs runs no
;; command loop, so the end of that command is played here.
(run-hooks 'post-command-hook)
(session-wait "eglot" #'eglot-current-server)

(defun session-typo ()
  "The Flymake diagnostic of the misspelt variable, once it is in."
  (flymake-start)
  (seq-find (lambda (d) (string-match-p "\\[F0101\\]" (flymake-diagnostic-text d)))
            (flymake-diagnostics)))

(let* ((d (session-wait "diagnostics" #'session-typo))
       (beg (flymake-diagnostic-beg d))
       (end (flymake-diagnostic-end d)))
  (princ (format "diagnostic F0101 on `%s'\n" (buffer-substring-no-properties beg end)))
  (goto-char beg)
  (let* ((range (list :start (eglot--pos-to-lsp-position beg)
                      :end (eglot--pos-to-lsp-position end)))
         (actions (session-request
                   :textDocument/codeAction
                   (list :textDocument (eglot--TextDocumentIdentifier)
                         :range range
                         :context (list :diagnostics
                                        (vector (cdr (assoc 'eglot-lsp-diag
                                                            (flymake-diagnostic-data d)))))))))
    (princ (format "action %s\n" (plist-get (aref actions 0) :title))))
  (let ((hover (session-request :textDocument/hover (eglot--TextDocumentPositionParams))))
    (princ (format "hover %s\n" (car (split-string (plist-get (plist-get hover :contents) :value)
                                                  "\n")))))
  ;; The misspelt name has no definition; the same formula on the next line reads the
  ;; variable as it is spelt.
  (search-forward "d20Mod(Score)")
  (search-backward "Score")
  (let* ((found (session-request :textDocument/definition (eglot--TextDocumentPositionParams)))
         (target (if (vectorp found) (aref found 0) found)))
    (princ (format "definition %s\n"
                   (file-name-nondirectory (eglot--uri-to-path (plist-get target :uri)))))))
(kill-emacs 0)
;;; emacs-session.el ends here
