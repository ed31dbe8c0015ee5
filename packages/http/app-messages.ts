import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Request and response classes for a server whose requests an express app answers.
 *
 * Express gives every request and response its app's prototypes as it takes them
 * (`Object.setPrototypeOf` in `app.handle`). A changed prototype leaves V8's optimised code for
 * Node's own HTTP objects behind: a bare express answer cost 111–157 µs of CPU against 22–26 µs
 * for Node's HTTP alone, and 39–42 µs once its messages were born with the app's prototypes,
 * which makes express's switch a no-op (`docs/benchmarks.md`, "Reads").
 *
 * The server is made before the app (the port is taken first, `services/service.ts`), so the
 * prototypes are adopted later: a constructor's `prototype` is read at each `new`, so messages
 * made from then on have the app's. Until then they are plain Node messages.
 */
export interface AppMessages {
  /** The classes, as `http.createServer` (and `https.createServer`) take them in their options. */
  readonly serverOptions: {
    readonly IncomingMessage: typeof IncomingMessage;
    readonly ServerResponse: typeof ServerResponse;
  };
  /** Requests and responses made from now on have this app's prototypes. */
  adopt(app: Express): void;
}

export function appMessages(): AppMessages {
  function AppRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>): void {
    IncomingMessage.apply(this, args);
  }
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>): void {
    ServerResponse.apply(this, args);
  }
  AppRequest.prototype = IncomingMessage.prototype;
  AppResponse.prototype = ServerResponse.prototype;
  return {
    serverOptions: {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    adopt(app) {
      AppRequest.prototype = app.request;
      AppResponse.prototype = app.response;
    },
  };
}
