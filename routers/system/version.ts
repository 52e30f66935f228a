import packageJson from '../../package.json' with { type: 'json' };

/** The service's version (semver): the client package's and the OpenAPI document's too. */
export const serviceVersion: string = packageJson.version;
