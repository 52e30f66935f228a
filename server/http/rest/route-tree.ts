/**
 * Path templates (`/c/{connectionId}/queues/{queueName}`) in a tree of
 * segments, matched in one walk whatever the number of routes. A literal
 * segment wins over a parameter (`…/jobs/retry` is the retry route, not job
 * "retry"); literals compare case-insensitively, as express mounts do; a
 * parameter takes one non-empty segment, still percent-encoded.
 */
interface TreeNode<T> {
  literals: Map<string, TreeNode<T>>;
  parameter?: TreeNode<T>;
  /** What ends here, by method, with the names of the parameters on the way. */
  endpoints: Map<string, { value: T; names: string[] }>;
}

export type TreeMatch<T> =
  | { kind: 'found'; value: T; template: string; params: Record<string, string> }
  | { kind: 'method'; allowed: string[]; template: string }
  | { kind: 'none' };

const newNode = <T>(): TreeNode<T> => ({ literals: new Map(), endpoints: new Map() });
const isParameter = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

export function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

export class RouteTree<T> {
  private readonly root = newNode<T>();
  private readonly templates = new Map<TreeNode<T>, string>();

  add(method: string, template: string, value: T): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of splitPath(template)) {
      if (isParameter(segment)) {
        names.push(segment.slice(1, -1));
        node = node.parameter ??= newNode();
      } else {
        const key = segment.toLowerCase();
        let next = node.literals.get(key);
        if (!next) {
          next = newNode();
          node.literals.set(key, next);
        }
        node = next;
      }
    }
    node.endpoints.set(method.toUpperCase(), { value, names });
    this.templates.set(node, template);
  }

  match(method: string, path: string): TreeMatch<T> {
    const values: string[] = [];
    const node = this.walk(this.root, splitPath(path), 0, values);
    if (!node) return { kind: 'none' };
    const template = this.templates.get(node)!;
    const endpoint = node.endpoints.get(method === 'HEAD' && !node.endpoints.has('HEAD') ? 'GET' : method);
    if (!endpoint) return { kind: 'method', allowed: [...node.endpoints.keys()].sort(), template };
    const params: Record<string, string> = {};
    endpoint.names.forEach((name, index) => {
      params[name] = values[index]!;
    });
    return { kind: 'found', value: endpoint.value, template, params };
  }

  private walk(node: TreeNode<T>, segments: string[], index: number, values: string[]): TreeNode<T> | null {
    if (index === segments.length) return node.endpoints.size > 0 ? node : null;
    const segment = segments[index]!;
    const literal = node.literals.get(segment.toLowerCase());
    const viaLiteral = literal && this.walk(literal, segments, index + 1, values);
    if (viaLiteral) return viaLiteral;
    if (!node.parameter || segment.length === 0) return null;
    values.push(segment);
    const viaParameter = this.walk(node.parameter, segments, index + 1, values);
    if (!viaParameter) values.pop();
    return viaParameter;
  }
}
