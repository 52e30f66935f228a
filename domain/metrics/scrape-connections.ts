import type { StoreHandle } from '../../server/stores/store-handle.js';
import { isStoreUnavailable } from '../../server/stores/store-errors.js';
import { exportConnectionPrometheus } from './connection-prometheus.js';
import { mergeExpositions } from './merge-exposition.js';

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/**
 * One Prometheus document for many connections: BullMQ's job counts per
 * queue and state, plus `bullpen_store_up` per connection. A store that is
 * down scores 0 there instead of failing the whole scrape.
 */
export async function scrapeConnections(stores: StoreHandle[]): Promise<string> {
  const results = await Promise.all(
    stores.map(async (store) => {
      try {
        return { store, up: true, texts: await exportConnectionPrometheus(store) };
      } catch (error) {
        if (!isStoreUnavailable(error)) throw error;
        return { store, up: false, texts: [] };
      }
    }),
  );
  const upFamily = [
    '# HELP bullpen_store_up Whether the store of a connection answered this scrape (1) or not (0)',
    '# TYPE bullpen_store_up gauge',
    ...results.map(({ store, up }) => `bullpen_store_up{connection="${escapeLabel(store.connection.id)}"} ${up ? 1 : 0}`),
  ].join('\n');
  return mergeExpositions([upFamily, ...results.flatMap(({ texts }) => texts)]);
}
