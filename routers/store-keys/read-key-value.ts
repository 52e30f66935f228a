import type { KeyValue } from '../../contracts/store-keys.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { AppError } from '../../contracts/app-error.js';
import { byteLength, capEntries } from './byte-cap.js';
import { readPage, scanFromCursor, scanKinds, sizeCommands, type Page } from './read-collection.js';

export interface ReadKeyRequest extends Page {
  store: StoreHandle;
  key: string;
  maxBytes: number;
  /** SCAN cursor for sets and hashes (`0` to start); replaces `offset` when given. */
  cursor?: string | undefined;
}

const entryBytes = (entry: unknown) => byteLength(JSON.stringify(entry));

/**
 * A key's value, read according to its type, one page at a time and never
 * much more than `maxBytes` of it. 404 when the key does not exist.
 */
export async function readKeyValue(request: ReadKeyRequest): Promise<KeyValue> {
  const { store, key, offset, limit, maxBytes } = request;
  const client = store.keyValue();
  const [type, ttl] = await Promise.all([client.type(key), client.ttl(key)]);
  if (type === 'none') throw new AppError('NOT_FOUND', `Key ${key} was not found`, { key });
  const sizeCommand = sizeCommands[type as keyof typeof sizeCommands];
  const size = sizeCommand ? Number(await client[sizeCommand](key)) : 0;
  const base = { key, type, ttl: Number(ttl), size, offset, nextCursor: null };
  if (type === 'string') return { ...base, offset: 0, ...(await readString(client, key, size, maxBytes)) };
  if (scanKinds.has(type) && request.cursor !== undefined) {
    const { entries, nextCursor } = await scanFromCursor(
      client,
      type as 'hash' | 'set',
      key,
      request.cursor,
      limit,
      maxBytes,
      entryBytes,
    );
    return {
      ...base,
      value: entries,
      nextOffset: null,
      nextCursor,
      truncated: nextCursor !== null || request.cursor !== '0',
    };
  }
  const entries = await readPage(client, type, key, { offset, limit });
  if (entries === null) return { ...base, value: null, nextOffset: null, truncated: false };
  const { kept, capped } = capEntries(entries, entryBytes, maxBytes);
  const end = offset + kept.length;
  const nextOffset = end < size ? end : null;
  return { ...base, value: kept, nextOffset, truncated: capped || nextOffset !== null || offset > 0 };
}

async function readString(client: StoreClient, key: string, size: number, maxBytes: number) {
  if (size > maxBytes) {
    // A cut string is not valid JSON: give the text as is.
    return { value: await client.getrange(key, 0, maxBytes - 1), nextOffset: null, truncated: true };
  }
  const text = (await client.get(key)) ?? '';
  return { value: parseJson(text), nextOffset: null, truncated: false };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
