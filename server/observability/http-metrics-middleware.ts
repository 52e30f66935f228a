import type { NextFunction, Request, Response } from 'express';
import type { HttpMetrics } from './http-metrics.js';

/** Times every request and records it under its route label when the response is finished. */
export function httpMetricsMiddleware(metrics: HttpMetrics, routeLabel: (method: string, path: string) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const path = req.originalUrl.split('?')[0]!;
      metrics.observe({ method: req.method, route: routeLabel(req.method, path), status: res.statusCode }, seconds);
    });
    next();
  };
}
