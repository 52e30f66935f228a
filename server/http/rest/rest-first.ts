import { IncomingMessage, ServerResponse, type RequestListener, type ServerOptions } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { RestApi } from './rest-api.js';
import { setBaselineHeaders } from '../security-headers.js';

/** What the HTTP server runs: its request listener, and the request and response classes it makes them of. */
export interface HttpApp {
  listener: RequestListener;
  serverOptions: ServerOptions;
}

/**
 * Requests and responses of classes whose prototypes inherit the app's
 * express ones, with the fields express's app and router set before its
 * first layer: a REST GET never changes an object's prototype. express's
 * app.handle re-prototypes every request and response it dispatches
 * (Object.setPrototypeOf), which puts them, and Node's HTTP code handling
 * them, on V8's slow paths: about half of a job read's server CPU (scratch
 * A/B at c=16: 0.105–0.123 ms per request, 0.206–0.264 re-prototyped).
 * What express dispatches is still re-prototyped; constructors whose
 * prototype is app.request itself (a no-op for express) read ~8 % slower.
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
 * layer walk, a `next` closure per layer, finalhandler) cost a job read
 * ~7 % of its CPU and ~14 % of its garbage (profiled). The same middleware
 * functions answer either way; every other request is the express app's.
 * Either way the response first gets the headers every response carries.
 */
export function restFirst(app: Express, observe: RequestHandler, rest: RestApi): HttpApp {
  const listener: RequestListener = (incoming, outgoing) => {
    setBaselineHeaders(incoming, outgoing);
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
