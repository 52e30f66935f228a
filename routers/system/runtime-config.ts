import type { Mode, RuntimeConfig } from '../../contracts/system.js';
import type { Config } from '../../server/config.js';

export function runtimeConfig(config: Config): RuntimeConfig {
  const persistence = config.persistence.mode;
  return {
    authless: config.authless,
    envConnections: config.envConnections,
    persistence,
    stateless: persistence === 'embedded',
    environment: config.environment,
    analytics: {
      enabled: config.analytics.key !== null,
      key: config.analytics.key,
      host: '/ingest',
      uiHost: config.analytics.uiHost,
    },
  };
}

export function runtimeMode(config: Config): Mode {
  return {
    auth: config.authless ? 'authless' : 'authenticated',
    persistence: config.persistence.mode,
    connections: config.envConnections ? 'env' : 'saved',
  };
}
