import { Migration0001Organizations } from './0001-organizations.js';
import { Migration0002Connections } from './0002-connections.js';

/** Applied in order at startup; never edit a released migration, add a new one. */
export const migrations = [
  { name: '0001-organizations', class: Migration0001Organizations },
  { name: '0002-connections', class: Migration0002Connections },
];
