// Starts the server processes' listeners. Returns handles so tests and tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { errorEnvelope } from "./http/envelope.js";
import { createRestApp, type RestAppOptions } from "./rest-app.js";
import type { RestServices } from "./rest-services.js";

export interface ServeOptions extends RestAppOptions {
  port: number;
  host?: string;
}

export interface RunningServer {
  restPort: number;
  services: RestServices;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { app, services } = createRestApp(options);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port, options.host ?? "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  server.on("clientError", answerMalformedRequest);
  return {
    restPort: (server.address() as AddressInfo).port,
    services,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (a URL or headers over
 * the 16 KiB limit, malformed request lines) still get the interface's envelope.
 */
function answerMalformedRequest(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const message = tooLarge ? "The request line or headers are longer than the server accepts (16 KiB)." : "Malformed HTTP request.";
  const body = JSON.stringify(errorEnvelope(message, "REST-30000"));
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
