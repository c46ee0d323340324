//! Starts `rulebook lsp` for PCGen files in Zed. The binary is the one on the worktree's
//! `PATH`, or the path in Zed's settings (`lsp.rulebook.binary.path`); the settings of
//! docs/editors.md go under `lsp.rulebook.settings` (pulled by the server as the `rulebook`
//! section) or `lsp.rulebook.initialization_options`.

use zed_extension_api::settings::LspSettings;
use zed_extension_api::{self as zed, LanguageServerId, Result, serde_json};

struct Rulebook;

impl zed::Extension for Rulebook {
    fn new() -> Self {
        Rulebook
    }

    fn language_server_command(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|s| s.binary);
        let command = binary
            .as_ref()
            .and_then(|b| b.path.clone())
            .or_else(|| worktree.which("rulebook"))
            .ok_or_else(|| {
                "rulebook is not on PATH: `cargo install --path .` in its source tree, \
                 or set lsp.rulebook.binary.path"
                    .to_owned()
            })?;
        let args = binary
            .and_then(|b| b.arguments)
            .unwrap_or_else(|| vec!["lsp".to_owned()]);
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|s| s.initialization_options))
    }

    fn language_server_workspace_configuration(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        let settings = LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|s| s.settings);
        // The server asks for the `rulebook` section.
        Ok(settings.map(|s| serde_json::json!({ "rulebook": s })))
    }
}

zed::register_extension!(Rulebook);
