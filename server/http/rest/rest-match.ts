import type { Response } from 'express';
import type { RestRoute } from './rest-routes.js';

/** The route a request matched, kept on `res.locals` for the handler and the metrics' route label. */
export interface RestMatch {
  route: RestRoute;
  /** The path template under the API base (`/c/{connectionId}/workers`). */
  template: string;
  params: Record<string, string>;
}

export const restMatchOf = (res: Response): RestMatch | undefined => res.locals.restMatch as RestMatch | undefined;
