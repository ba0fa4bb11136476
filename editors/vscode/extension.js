// The Regel extension: highlighting comes from the grammar in package.json;
// everything else (diagnostics as you type, hover, go to definition,
// completion, rename, formatting) from the language server `regel lsp`,
// started here over stdio.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("regel").get("path") || "regel";
  const run = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "regel",
    "Regel",
    { run, debug: run },
    {
      documentSelector: [{ scheme: "file", language: "regel" }],
      // Boards are TOML files the rules name: the server reports their errors too.
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{rules,toml}"),
      },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
