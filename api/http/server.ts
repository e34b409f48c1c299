import http from 'node:http';
import type { Express } from 'express';

/**
 * The app's HTTP server, whose requests and responses are made with the app's prototypes.
 *
 * Express gives each request and response the app's prototypes as it arrives
 * (`Object.setPrototypeOf`), and V8 gives an object whose prototype is changed a hidden class of
 * its own. Every request then had a class no other request had, so each read of a request's or
 * response's property in express, its router and the middleware missed V8's inline caches and
 * went to the runtime. Made with those prototypes from the start, requests share one class, and
 * express's change of prototype finds nothing to change.
 */
export function createHttpServer(app: Express): http.Server {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse extends http.ServerResponse {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as Express['request'];
  app.response = AppResponse.prototype as Express['response'];
  return http.createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, app);
}
