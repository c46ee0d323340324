// Starts `rulebook lsp` for PCGen LST/PCC files, in workspaces that hold PCGen data.
const vscode = require("vscode");

let client;

/** True when a folder of the workspace holds a PCC file: PCGen data. */
async function holdsPcc() {
  const found = await vscode.workspace.findFiles("**/*.{pcc,PCC}", "**/node_modules/**", 1);
  return found.length > 0;
}

async function activate(context) {
  // VS Code activates the extension on a folder holding a PCC (package.json), and also on
  // opening any file of its language (.lst is a common extension): the server only
  // starts where there is PCGen data.
  if (!(await holdsPcc())) {
    return;
  }
  const command = vscode.workspace.getConfiguration("rulebook").get("path") || "rulebook";
  const server = { command, args: ["lsp"] };
  // Loaded here, not with the extension: where no server starts, the client is not read.
  const { LanguageClient } = require("vscode-languageclient/node");
  // The server pulls the `rulebook` settings (workspace/configuration) at the start and
  // whenever they change.
  client = new LanguageClient(
    "rulebook",
    "rulebook",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "pcgen-lst" }] },
  );
  context.subscriptions.push(client);
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
