import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { referrerPolicy, xContentTypeOptions } from 'helmet';

const noReferrer = { policy: 'no-referrer' } as const;
const nosniff = xContentTypeOptions();
const referrerNone = referrerPolicy(noReferrer);
const proceed = () => {};

/**
 * What every response carries, set before anything answers (the REST reads
 * answered ahead of express included): no MIME sniffing of a body into
 * something executable, and no Referer leaking a URL (reset links, tokens
 * in paths) to another site.
 */
export function setBaselineHeaders(req: IncomingMessage, res: ServerResponse): void {
  nosniff(req, res, proceed);
  referrerNone(req, res, proceed);
}

/**
 * The docs page (Swagger UI from swagger-ui-dist, served by this service):
 * helmet's headers, with a Content-Security-Policy that allows this origin's
 * own scripts, styles, images and fetches and nothing else, and no framing.
 * Inline styles stay allowed: the page template and Swagger UI's React
 * components use them; scripts get no such exception. No HSTS and no
 * upgrade-insecure-requests: TLS is the deployment's choice (plain HTTP on
 * loopback must keep working).
 */
export const docsSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      imgSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
    },
  },
  referrerPolicy: noReferrer,
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
});
