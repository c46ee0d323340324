//! The editor's settings for the server: `initializationOptions` at the start, then each
//! `workspace/didChangeConfiguration`. They say what `rulebook check`'s flags say, and weigh
//! as the flags do over `rulebook.toml`: `pcgenRoot` over `pcgen-root`; `extraRoots` added
//! to `extra-roots`; `allow`/`deny` first, the file's words on top.
//!
//! ```json
//! {"pcgenRoot": "/opt/pcgen", "extraRoots": ["../homebrew"], "allow": ["notes"],
//!  "deny": ["warnings"], "errorsDocUrl": "https://example.org/errors.md"}
//! ```
//!
//! The same object may sit under a `rulebook` key (VS Code sends a section that way).
//! Relative paths are relative to the editor's folder.

use crate::config::codes::selector;
use crate::config::policy::Policy;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The settings as the editor sends them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// The PCGen root (`--pcgen-root`): the folder holding `data/` and `system/gameModes/`.
    pub pcgen_root: Option<PathBuf>,
    /// Folders outside the root whose files a PCC may name; their PCCs are load sets too.
    pub extra_roots: Vec<PathBuf>,
    /// Warnings and notes not shown: `warnings`, `notes`, codes or code names (`--allow`).
    pub allow: Vec<String>,
    /// Warnings and notes shown as errors (`--deny`).
    pub deny: Vec<String>,
    /// Where diagnostic codes link to: a copy of `docs/errors.md`, as a URL.
    pub errors_doc_url: Option<String>,
}

impl Settings {
    /// The settings in `value` (the object itself, or under `rulebook`); keys of other tools
    /// are left alone. `Err` says what is wrong with a key of ours.
    pub fn from_value(value: &Value) -> Result<Settings, String> {
        let ours = match value.get("rulebook") {
            Some(v) if v.is_object() => v,
            _ => value,
        };
        if !ours.is_object() {
            return Ok(Settings::default());
        }
        let mut settings: Settings =
            serde_json::from_value(ours.clone()).map_err(|e| format!("rulebook settings: {e}"))?;
        // An empty string is a setting left unset: VS Code sends its declared default.
        settings.pcgen_root = settings.pcgen_root.filter(|p| !p.as_os_str().is_empty());
        settings.errors_doc_url = settings.errors_doc_url.filter(|u| !u.is_empty());
        Ok(settings)
    }

    /// `pcgenRoot` and `extraRoots` made absolute: relative ones start at `folder`.
    pub fn absolute(mut self, folder: &Path) -> Settings {
        let at = |p: &Path| crate::load::fs::normalize(&folder.join(p));
        self.pcgen_root = self.pcgen_root.as_deref().map(at);
        self.extra_roots = self.extra_roots.iter().map(|p| at(p)).collect();
        self
    }

    /// `allow`/`deny` as a policy (what the CLI makes of `--allow`/`--deny`); `Err` names a
    /// word that is no code.
    pub fn policy(&self) -> Result<Policy, String> {
        let mut policy = Policy::default();
        for d in &self.deny {
            policy
                .deny
                .push(selector(d, "deny").map_err(|e| e.to_string())?);
        }
        for a in &self.allow {
            policy
                .allow
                .push(selector(a, "allow").map_err(|e| e.to_string())?);
        }
        Ok(policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_are_read_alone_or_under_rulebook_and_other_keys_are_left_alone() {
        let plain = json!({"pcgenRoot": "pcgen", "extraRoots": ["/brew"], "allow": ["notes"]});
        let s = Settings::from_value(&plain).unwrap();
        assert_eq!(s.pcgen_root, Some(PathBuf::from("pcgen")));
        let nested = json!({"rulebook": plain, "other": {"x": 1}});
        assert_eq!(Settings::from_value(&nested).unwrap(), s);
        let s = s.absolute(Path::new("/work/brew"));
        assert_eq!(s.pcgen_root, Some(PathBuf::from("/work/brew/pcgen")));
        assert_eq!(s.extra_roots, vec![PathBuf::from("/brew")]);
        assert_eq!(s.policy().unwrap().allow.len(), 1);
        assert_eq!(
            Settings::from_value(&Value::Null).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn an_empty_string_is_a_setting_left_unset() {
        let vscode = json!({"rulebook": {"path": "rulebook", "pcgenRoot": "", "errorsDocUrl": ""}});
        assert_eq!(Settings::from_value(&vscode).unwrap(), Settings::default());
    }

    #[test]
    fn a_wrong_value_or_code_is_said() {
        assert!(Settings::from_value(&json!({"extraRoots": "x"})).is_err());
        let s = Settings::from_value(&json!({"deny": ["M9999x"]})).unwrap();
        assert!(s.policy().is_err());
    }
}
