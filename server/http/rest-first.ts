import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { RestApi } from './rest/rest-api.js';

/** What express's app and router set on a request before its first layer runs (express 5: `app.handle`, `router.handle`). */
function asExpressPair(app: Express, incoming: IncomingMessage, outgoing: ServerResponse): [Request, Response] {
  const req = Object.setPrototypeOf(incoming, app.request) as Request;
  const res = Object.setPrototypeOf(outgoing, app.response) as Response;
  req.res = res;
  res.req = req;
  res.locals = Object.create(null) as Response['locals'];
  req.originalUrl = req.url;
  req.baseUrl = '';
  req.params = {};
  return [req, res];
}

/**
 * The service's request listener. A GET for a REST procedure (reading a job,
 * its logs, a page, the queue list: what operators and programs ask most)
 * runs the app's first two layers, request observation then the REST
 * handler, as the express app would, but without its router: the router's
 * dispatch (the layer walk, a `next` closure per layer, finalhandler) cost a
 * job read ~7 % of its CPU and ~14 % of its garbage (profiled). The same
 * middleware functions answer either way; every other request is the app's.
 */
export function restFirstListener(app: Express, observe: RequestHandler, rest: RestApi): RequestListener {
  return (incoming, outgoing) => {
    const match = incoming.method === 'GET' ? rest.getRouteOf(incoming.url ?? '') : undefined;
    if (!match) return void app(incoming, outgoing);
    const [req, res] = asExpressPair(app, incoming, outgoing);
    void observe(req, res, () => rest.answerGet(req, res, match));
  };
}
