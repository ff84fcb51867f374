// The extension only starts `nginx-lint lsp`; every feature lives in the
// server, so the editor and the command line always agree.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("nginx-lint").get("path") || "nginx-lint";
  const serverOptions = {
    run: { command, args: ["lsp"], transport: TransportKind.stdio },
    debug: { command, args: ["lsp"], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "nginx" }, { scheme: "untitled", language: "nginx" }],
  };
  client = new LanguageClient("nginx-lint", "nginx-lint", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
