// Starts `rulebook lsp` for PCGen LST/PCC files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulebook");
  const command = config.get("path") || "rulebook";
  const errorsDocUrl = config.get("errorsDocUrl");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "rulebook",
    "rulebook",
    { run: server, debug: server },
    {
      documentSelector: [{ scheme: "file", language: "pcgen-lst" }],
      initializationOptions: errorsDocUrl ? { errorsDocUrl } : {},
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
