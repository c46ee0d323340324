//! Settings pulled from the client (`workspace/configuration`), for clients that keep the
//! user's settings themselves and say they answer such requests (`workspace.configuration`
//! in their capabilities: VS Code, Neovim, Emacs's eglot): asked for the `rulebook` section
//! once the session starts, and again whenever the client says the settings changed
//! without sending them (`workspace/didChangeConfiguration` with null settings, as clients
//! of this pull model do). An answer replaces the settings in force, as the settings of a
//! `didChangeConfiguration` do ([`crate::lsp::settings`]); a null answer (the client has no
//! such section) leaves them as they are. Only the answer to the latest request counts: an
//! older one arriving late would put back settings already replaced.

use crate::lsp::settings::Settings;
use lsp_server::{Request, RequestId, Response};
use lsp_types as lsp;
use serde_json::Value;

/// The prefix of the ids of the requests asking for the settings.
const ID: &str = "rulebook/configuration-";

/// The settings section asked for.
const SECTION: &str = "rulebook";

/// The pull of settings for one client.
#[derive(Debug)]
pub struct Pull {
    /// The client answers `workspace/configuration`.
    supported: bool,
    /// The number of requests sent (the latest's id ends with it).
    asked: u64,
}

impl Pull {
    /// The pull for the client that sent `params`.
    pub fn for_client(params: &lsp::InitializeParams) -> Self {
        let supported = (params.capabilities.workspace.as_ref())
            .and_then(|w| w.configuration)
            .unwrap_or(false);
        Pull {
            supported,
            asked: 0,
        }
    }

    /// The request for the `rulebook` section of the settings of `scope` (the workspace
    /// folder), when the client answers such requests.
    pub fn request(&mut self, scope: Option<lsp::Uri>) -> Option<Request> {
        if !self.supported {
            return None;
        }
        self.asked += 1;
        let params = lsp::ConfigurationParams {
            items: vec![lsp::ConfigurationItem {
                scope_uri: scope,
                section: Some(SECTION.to_owned()),
            }],
        };
        let id = RequestId::from(format!("{ID}{}", self.asked));
        Some(Request::new(
            id,
            "workspace/configuration".to_owned(),
            params,
        ))
    }

    /// True when `response` answers one of these requests (the latest or an older one).
    pub fn answered_by(response: &Response) -> bool {
        response.id.to_string().contains(ID)
    }

    /// The settings `response` gives: `None` when it answers an older request than the
    /// latest, fails, or has no section for us (null); `Err` says what is wrong in it.
    pub fn settings(&self, response: Response) -> Option<Result<Settings, String>> {
        let latest = RequestId::from(format!("{ID}{}", self.asked));
        if response.id != latest {
            return None;
        }
        let mut items = match response.response_result.ok()? {
            Value::Array(items) => items,
            _ => return None,
        };
        if items.is_empty() {
            return None;
        }
        match items.swap_remove(0) {
            Value::Null => None,
            section => Some(Settings::from_value(&section)),
        }
    }
}

/// True when a `workspace/didChangeConfiguration` notification carries no settings: the
/// client says they changed and expects them to be pulled.
pub fn says_pull(n: &lsp_server::Notification) -> bool {
    n.method == "workspace/didChangeConfiguration"
        && n.params.get("settings").is_none_or(Value::is_null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn client(configuration: bool) -> Pull {
        let params = json!({"capabilities": {"workspace": {"configuration": configuration}}});
        Pull::for_client(&serde_json::from_value(params).unwrap())
    }

    fn answer(id: &RequestId, result: Value) -> Response {
        Response::new_ok(id.clone(), result)
    }

    #[test]
    fn only_a_client_that_answers_is_asked_and_only_its_latest_answer_counts() {
        assert!(client(false).request(None).is_none());
        let mut pull = client(true);
        let first = pull.request(None).unwrap();
        assert_eq!(first.method, "workspace/configuration");
        assert_eq!(first.params["items"][0]["section"], "rulebook");
        let second = pull.request(None).unwrap();
        let old = answer(&first.id, json!([{"allow": ["notes"]}]));
        assert!(Pull::answered_by(&old));
        assert!(pull.settings(old).is_none(), "an older answer is late");
        let latest = answer(&second.id, json!([{"allow": ["notes"]}]));
        let settings = pull.settings(latest).unwrap().unwrap();
        assert_eq!(settings.allow, ["notes"]);
        assert!(pull.settings(answer(&second.id, json!([null]))).is_none());
        let wrong = answer(&second.id, json!([{"extraRoots": "x"}]));
        assert!(pull.settings(wrong).unwrap().is_err());
    }

    #[test]
    fn a_change_without_settings_asks_for_a_pull() {
        let change = |params: Value| {
            lsp_server::Notification::new("workspace/didChangeConfiguration".to_owned(), params)
        };
        assert!(says_pull(&change(json!({"settings": null}))));
        assert!(says_pull(&change(json!({}))));
        assert!(!says_pull(&change(json!({"settings": {"allow": []}}))));
    }
}
