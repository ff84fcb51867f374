// The extension starts `nginx-lint lsp` with vscode-languageclient; every
// feature lives in the server, so the editor and the command line agree.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");
const { bundledServer, serverCommand, initializationOptions, restartSettings } = require("./settings");

let client;
// The extension's directory, where a platform-specific .vsix keeps bin/.
let extensionPath = "";

function createClient() {
  const config = vscode.workspace.getConfiguration("nginx-lint");
  const { command, args } = serverCommand(config, bundledServer(extensionPath));
  const run = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "nginx" },
      { scheme: "untitled", language: "nginx" },
    ],
    initializationOptions: initializationOptions(config),
    // Sends workspace/didChangeConfiguration for this section; trace.server
    // is read by the client itself (its id is "nginx-lint").
    synchronize: { configurationSection: "nginx-lint" },
  };
  return new LanguageClient("nginx-lint", "nginx-lint", { run, debug: run }, clientOptions);
}

async function start() {
  client = createClient();
  try {
    await client.start();
  } catch (err) {
    const config = vscode.workspace.getConfiguration("nginx-lint");
    const { command } = serverCommand(config, bundledServer(extensionPath));
    vscode.window.showErrorMessage(
      `nginx-lint: cannot start "${command} lsp" (${err && err.message ? err.message : err}). ` +
        "Install it with `go install github.com/nginx-lint/nginx-lint/cmd/nginx-lint@latest` or set nginx-lint.path.",
    );
  }
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => {});
  }
  await start();
}

async function activate(context) {
  extensionPath = context.extensionPath || "";
  context.subscriptions.push(
    vscode.commands.registerCommand("nginx-lint.restartServer", restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (restartSettings.some((s) => e.affectsConfiguration(s))) {
        restart();
      }
    }),
    { dispose: () => (client ? client.stop() : undefined) },
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
