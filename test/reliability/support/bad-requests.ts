import type { RawRequest } from './http-exchange.js';
import { httpMethods, type ApiDescription } from './openapi-operations.js';
import { bodyFieldCases } from './body-field-cases.js';
import { OperationCases, type Case, type GeneratorOptions } from './operation-cases.js';
import { headerCases, pathCases, queryCases } from './path-and-query-cases.js';
import { seededRandom } from './seeded-random.js';
import { wholeBodyCases } from './whole-body-cases.js';

export type { GeneratorOptions } from './operation-cases.js';

/**
 * Generates bad requests for every operation of the OpenAPI document. Reads
 * (GET) get anything; every other method gets only requests the schemas (or
 * an unknown resource) prove invalid, so the suite never changes data on
 * purpose and a changed snapshot means a real bug.
 *
 * The cases of one operation are built in operation-cases.ts, family by
 * family: path-and-query-cases.ts, body-field-cases.ts, whole-body-cases.ts,
 * with the odd values of bad-request-values.ts.
 */

/** Requests to methods a path does not define, with valid path values (nothing runs). */
function wrongMethodCases(description: ApiDescription, options: GeneratorOptions): RawRequest[] {
  const byPath = new Map<string, Set<string>>();
  for (const operation of description.operations) {
    byPath.set(operation.path, (byPath.get(operation.path) ?? new Set()).add(operation.method));
  }
  const cases: RawRequest[] = [];
  for (const [template, defined] of byPath) {
    const path =
      options.basePath +
      template.replace(/\{(\w+)\}/g, (_match, name: string) =>
        encodeURIComponent(options.validPathValues[name] ?? 'x'),
      );
    for (const method of [...httpMethods, 'OPTIONS', 'TRACE', 'PROPFIND']) {
      if (defined.has(method)) continue;
      cases.push({
        label: `${method} ${template}: method not defined`,
        method,
        path,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    }
    if (defined.has('GET')) cases.push({ label: `HEAD ${template}`, method: 'HEAD', path });
  }
  return cases;
}

/** The whole deterministic set: up to `perOperation` cases per operation, plus wrong methods. */
export function generateBadRequests(description: ApiDescription, options: GeneratorOptions): RawRequest[] {
  const random = seededRandom(options.seed);
  const requests: Case[] = [];
  for (const operation of description.operations) {
    const cases = new OperationCases(operation, options, description.resolve);
    pathCases(cases);
    queryCases(cases);
    bodyFieldCases(cases);
    wholeBodyCases(cases);
    headerCases(cases);
    // The two size-limit bodies are always sent; the rest is a seeded sample.
    const [sized, others] = partition(cases.cases, (item) => item.label.includes('size limit'));
    requests.push(...sized, ...random.shuffle(others).slice(0, options.perOperation - sized.length));
  }
  return [...requests.map(({ invalid: _invalid, ...request }) => request), ...wrongMethodCases(description, options)];
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
