import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { DocumentValidator, sendCall, type CheckedResponse, type DocumentedCall } from '../document-validator.js';

/** The response headers a client acts on; the rest (date, request id, keep-alive) differ between any two answers. */
export const headersThatMatter = [
  'content-type',
  'allow',
  'retry-after',
  'location',
  'cache-control',
  'set-cookie',
  'www-authenticate',
] as const;

export interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

export const answerOf = (response: CheckedResponse): Answer => ({
  status: response.status,
  headers: Object.fromEntries(headersThatMatter.map((name) => [name, response.headers.get(name)])),
  body: response.body,
});

const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** Two answers sent one after the other read the clock a few milliseconds apart (`totalsAt`, `exportedAt`, a window's `to`). */
const clockSlackMs = 5_000;

/** A time in milliseconds since 1970 (a window's `from` and `to`): between 2017 and 2049. */
const isEpochMs = (value: number) => value > 1.5e12 && value < 2.5e12;
/** A duration read off the clock (`uptimeSeconds`, `ageMs`), by its name. */
const durationKey = /(Seconds|Ms)$/;
/** A reading of the shared store that other clients move between the two calls (its memory, clients, ops/s). */
const storeReadingKey = /^(usedMemoryBytes|connectedClients|opsPerSecond)$/;

/**
 * `stock` with each clock reading within the slack of ours' (a timestamp,
 * ISO or in milliseconds, or a duration named as one) replaced by ours': what is left to differ is
 * a real difference.
 */
export function alignClocks(ours: unknown, stock: unknown, key = ''): unknown {
  if (typeof ours === 'string' && typeof stock === 'string' && isoTime.test(ours) && isoTime.test(stock)) {
    return Math.abs(Date.parse(ours) - Date.parse(stock)) <= clockSlackMs ? ours : stock;
  }
  if (typeof ours === 'number' && typeof stock === 'number' && isEpochMs(ours) && isEpochMs(stock)) {
    return Math.abs(ours - stock) <= clockSlackMs ? ours : stock;
  }
  if (typeof ours === 'number' && typeof stock === 'number' && storeReadingKey.test(key)) return ours;
  if (typeof ours === 'number' && typeof stock === 'number' && durationKey.test(key)) {
    const slack = key.endsWith('Ms') ? clockSlackMs : clockSlackMs / 1000;
    return Math.abs(ours - stock) <= slack ? ours : stock;
  }
  if (Array.isArray(ours) && Array.isArray(stock)) return stock.map((item, index) => alignClocks(ours[index], item));
  if (ours && stock && typeof ours === 'object' && typeof stock === 'object') {
    const oursRecord = ours as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(stock).map(([name, value]) => [name, alignClocks(oursRecord[name], value, name)]),
    );
  }
  return stock;
}

/** Both answers, the stock one's clock readings aligned to ours (alignClocks). */
export function comparable(ours: CheckedResponse, stock: CheckedResponse): { ours: Answer; stock: Answer } {
  const oursAnswer = answerOf(ours);
  const stockAnswer = answerOf(stock);
  return { ours: oursAnswer, stock: { ...stockAnswer, body: alignClocks(oursAnswer.body, stockAnswer.body) } };
}

/**
 * A DocumentValidator over two apps on the same services: ours (server/http/rest/)
 * and one whose REST API is trpc-to-openapi's stock adapter (stock-rest-api.ts).
 * A call that changes nothing (a read, or a refusal) goes to both, and their
 * answers must be equal: status, the headers that matter, body. A successful
 * mutation cannot be sent twice to one store, so it goes to the stock app
 * alone, held to the document and the tour's status as ours is in
 * openapi-responses.test.ts. Calls to routes that are not REST procedures,
 * or whose refusal spends a rate limit the tour counts, go to ours alone.
 */
export interface Mirror {
  /** The stock app's API base (`http://…/api`). */
  stockApi: string;
  /** The REST procedure routes, as `METHOD /path`: other operations are plain express routes, the same in both apps. */
  procedureRoutes: ReadonlySet<string>;
  /** Calls sent to ours alone (a refusal that spends a limit the tour counts). */
  unmirrored(operation: string, status: number): boolean;
}

export class MirroredValidator extends DocumentValidator {
  /** Every call answered by both, as `METHOD /path status`. */
  readonly compared = new Set<string>();
  /** Every successful mutation the stock app served. */
  readonly servedByStock = new Set<string>();

  private constructor(
    document: unknown,
    api: string,
    readonly mirror: Mirror,
  ) {
    super(document, api);
  }

  static async mirrored(document: unknown, api: string, mirror: Mirror): Promise<MirroredValidator> {
    const validator = new MirroredValidator(document, api, mirror);
    await validator.ready();
    return validator;
  }

  override async check(call: DocumentedCall, status: number): Promise<CheckedResponse> {
    const { stockApi, procedureRoutes, unmirrored } = this.mirror;
    if (!procedureRoutes.has(call.operation) || unmirrored(call.operation, status)) return super.check(call, status);
    const changesNothing = call.operation.startsWith('GET ') || status >= 400;
    if (!changesNothing) {
      this.servedByStock.add(call.operation);
      return this.checkAt(stockApi, call, status);
    }
    const ours = await super.check(call, status);
    let answers = comparable(ours, await sendCall(stockApi, call));
    if (call.operation.startsWith('GET ') && !isDeepStrictEqual(answers.ours, answers.stock)) {
      // A read of the clock's (a rate over the last minutes) can straddle a boundary between two answers: asked again, both land alike.
      answers = comparable(await sendCall(this.api, call), await sendCall(stockApi, call));
    }
    expect(answers.ours, `${call.operation} → ${status}: ours (received) vs the stock adapter (expected)`).toEqual(
      answers.stock,
    );
    this.compared.add(`${call.operation} ${status}`);
    return ours;
  }
}
