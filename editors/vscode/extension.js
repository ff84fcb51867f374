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

// The last URL routed, offered again.
let lastURL = "";
let routeOutput;

// routeUrl asks for a URL and shows what the server's nginx-lint.route
// answers for it under the active document's configuration: the server,
// the location, each redirect and the handler, as `nginx-lint route`
// prints them.
async function routeUrl() {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor || editor.document.languageId !== "nginx") {
    vscode.window.showWarningMessage("nginx-lint: open an nginx configuration to route a URL through it.");
    return;
  }
  const url = await vscode.window.showInputBox({
    prompt: "The URL to route: http[s]://HOST[:PORT]/path?query (the path is sent as written)",
    placeHolder: "https://example.com/path",
    value: lastURL,
  });
  if (!url) {
    return;
  }
  lastURL = url;
  try {
    const res = await client.sendRequest("workspace/executeCommand", {
      command: "nginx-lint.route",
      arguments: [editor.document.uri.toString(), url],
    });
    if (!routeOutput) {
      routeOutput = vscode.window.createOutputChannel("nginx-lint route");
    }
    routeOutput.appendLine(res.text);
    routeOutput.show(true);
  } catch (err) {
    vscode.window.showErrorMessage(`nginx-lint: ${err && err.message ? err.message : err}`);
  }
}

async function activate(context) {
  extensionPath = context.extensionPath || "";
  context.subscriptions.push(
    vscode.commands.registerCommand("nginx-lint.restartServer", restart),
    vscode.commands.registerCommand("nginx-lint.routeUrl", routeUrl),
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
