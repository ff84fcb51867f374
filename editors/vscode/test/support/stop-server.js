// stopServer ends a test's language server as the editor does (shutdown,
// then exit), kills it if it has not exited within five seconds, and
// disposes of the connection: what every test file's after() needs.
"use strict";

async function stopServer(server, conn, request) {
  if (conn && server && server.exitCode === null) {
    try {
      await request("shutdown", null);
      await conn.sendNotification("exit");
    } catch {
      // The tests of exit report it; here only clean up.
    }
  }
  if (server && server.exitCode === null) {
    await new Promise((resolve) => {
      const t = setTimeout(() => {
        server.kill("SIGKILL");
        resolve();
      }, 5000);
      server.on("exit", () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
  if (conn) conn.dispose();
}

module.exports = { stopServer };
