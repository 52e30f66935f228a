type Json = Record<string, any>;

/** Follows a local `$ref` (`#/components/...`) of the OpenAPI document. */
function resolved(document: Json, value: Json): Json {
  if (typeof value?.$ref !== 'string') return value;
  return (value.$ref as string)
    .slice(2)
    .split('/')
    .reduce((node: Json, part) => node?.[part], document);
}

/**
 * Whether the OpenAPI document lists `code` among the answers of
 * `method path` at `status` (its response, `$ref`s followed, names it).
 */
export function isDocumented(document: Json, method: string, path: string, status: number, code: string): boolean {
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  const response = operation?.responses?.[String(status)];
  if (!response) return false;
  return JSON.stringify(resolved(document, response)).includes(`"${code}"`);
}
