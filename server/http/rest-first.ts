import { IncomingMessage, ServerResponse, type RequestListener, type ServerOptions } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { RestApi } from './rest/rest-api.js';

/** What the HTTP server runs: its request listener, and the request and response classes it makes them of. */
export interface HttpApp {
  listener: RequestListener;
  serverOptions: ServerOptions;
}

/**
 * Requests and responses made with the app's express prototypes from the
 * start, with the fields express's app and router set before the first
 * layer: no `Object.setPrototypeOf` per request (express's own app.handle
 * still sets the same prototypes on the requests it dispatches).
 */
function expressClasses(app: Express): ServerOptions {
  class ExpressRequest extends IncomingMessage {
    res: ServerResponse | undefined = undefined;
    baseUrl = '';
    params = {};
  }
  class ExpressResponse extends ServerResponse {
    locals: Record<string, unknown> = {};
  }
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse as unknown as typeof ServerResponse };
}

/**
 * The service's HTTP app. A GET for a REST procedure (reading a job, its
 * logs, a page, the queue list: what operators and programs ask most) runs
 * the app's first two layers, request observation then the REST handler, as
 * the express app would, but without its router: the router's dispatch (the
 * layer walk, a `next` closure per layer, finalhandler, the prototypes set
 * per request) cost a job read ~9 % of its CPU and ~14 % of its garbage
 * (profiled). The same middleware functions answer either way; every other
 * request is the express app's.
 */
export function restFirst(app: Express, observe: RequestHandler, rest: RestApi): HttpApp {
  const listener: RequestListener = (incoming, outgoing) => {
    const match = incoming.method === 'GET' ? rest.getRouteOf(incoming.url ?? '') : undefined;
    if (!match) return void app(incoming, outgoing);
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    req.originalUrl = req.url;
    void observe(req, res, () => rest.answerGet(req, res, match));
  };
  return { listener, serverOptions: expressClasses(app) };
}
