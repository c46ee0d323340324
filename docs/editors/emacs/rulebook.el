;;; rulebook.el --- rulebook lsp for PCGen data in Emacs, with eglot  -*- lexical-binding: t -*-

;; Emacs 29 and later ship eglot; on Emacs 28 (Debian 12's) install it first
;; (`apt install elpa-eglot', or `M-x package-install RET eglot' from GNU ELPA).
;; Load this file from your init file: (load "/path/to/rulebook.el").
;; Tested in CI by .ci/emacs: Debian's emacs-nox 28.2 with elpa-eglot 1.9, in batch mode.

;;; Code:

(require 'eglot)
(require 'project)

(define-derived-mode pcgen-mode prog-mode "PCGen"
  "Major mode for PCGen's LST and PCC data files."
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  ;; PCGen data separates tokens with tabs; PrettyLST's columns are 6 wide.
  (setq-local indent-tabs-mode t)
  (setq-local tab-width 6))

(add-to-list 'auto-mode-alist '("\\.\\(lst\\|pcc\\|LST\\|PCC\\)\\'" . pcgen-mode))

(defun rulebook-project (dir)
  "The PCGen root above DIR (the folder holding system/gameModes), as a project.
One `rulebook lsp' serves each root; without one, eglot falls back on DIR."
  (when-let ((root (locate-dominating-file
                    dir (lambda (d)
                          (file-directory-p (expand-file-name "system/gameModes" d))))))
    (cons 'transient root)))

(add-hook 'project-find-functions #'rulebook-project)

(add-to-list 'eglot-server-programs '(pcgen-mode . ("rulebook" "lsp")))

;; Settings (docs/editors.md, Settings), pulled by the server from the `rulebook' section:
;; (setq-default eglot-workspace-configuration
;;               '(:rulebook (:pcgenRoot "/opt/pcgen" :extraRoots ["."])))

(add-hook 'pcgen-mode-hook #'eglot-ensure)

(provide 'rulebook)
;;; rulebook.el ends here
