// The bundled extension (dist/extension.js) starts the server only in a workspace holding a
// PCC: activated with no PCC in reach, it returns before reading any setting; with one, it
// goes on to start the client (which this stand-in for VS Code's API cannot run: its
// failure to is the proof that the extension tried).
const assert = require("node:assert");
const Module = require("node:module");
const path = require("node:path");

function activateWith(pccs) {
  const asked = [];
  const vscode = {
    workspace: {
      findFiles: async (glob) => {
        asked.push(glob);
        return pccs;
      },
      getConfiguration: (section) => {
        asked.push(`configuration ${section}`);
        return { get: () => undefined };
      },
    },
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === "vscode" ? "vscode" : resolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: vscode };
  const bundle = path.join(__dirname, "..", "dist", "extension.js");
  delete require.cache[bundle];
  const extension = require(bundle);
  Module._resolveFilename = resolve;
  const context = { subscriptions: [] };
  return extension.activate(context).then(
    () => ({ asked, started: false }),
    () => ({ asked, started: true }),
  );
}

(async () => {
  const none = await activateWith([]);
  assert.deepStrictEqual(none.asked, ["**/*.{pcc,PCC}"]);
  assert.strictEqual(none.started, false);
  const some = await activateWith([{ fsPath: "/pcgen/data/book/book.pcc" }]);
  assert.deepStrictEqual(some.asked, ["**/*.{pcc,PCC}", "configuration rulebook"]);
  assert.strictEqual(some.started, true);
  console.log("activation: no server without a PCC in the workspace, one with");
})();
