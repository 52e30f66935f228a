import type { KeyValue } from '../../contracts/store-keys.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { AppError } from '../errors.js';
import { byteLength, capEntries } from './byte-cap.js';
import { collectionReaders, sizeCommands, type Page } from './read-collection.js';

export interface ReadKeyRequest extends Page {
  store: StoreHandle;
  key: string;
  maxBytes: number;
}

/**
 * A key's value, read according to its type, one page at a time and never
 * more than `maxBytes` of it. 404 when the key does not exist.
 */
export async function readKeyValue({ store, key, offset, limit, maxBytes }: ReadKeyRequest): Promise<KeyValue> {
  const client = store.client;
  const [type, ttl] = await Promise.all([client.type(key), client.ttl(key)]);
  if (type === 'none') throw new AppError('NOT_FOUND', `Key ${key} was not found`, { key });
  const sizeCommand = sizeCommands[type as keyof typeof sizeCommands];
  const size = sizeCommand ? Number(await client[sizeCommand](key)) : 0;
  const base = { key, type, ttl: Number(ttl), size, offset };
  if (type === 'string') return { ...base, offset: 0, ...(await readString(client, key, size, maxBytes)) };
  if (!(type in collectionReaders)) return { ...base, value: null, nextOffset: null, truncated: false };
  const entries: unknown[] = await collectionReaders[type as keyof typeof collectionReaders](client, key, { offset, limit });
  const { kept, capped } = capEntries(entries, (entry) => byteLength(JSON.stringify(entry)), maxBytes);
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
  const trimmed = text.trim();
  if (!/^[{["]/.test(trimmed) && !/^(-?\d|true$|false$|null$)/.test(trimmed)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
