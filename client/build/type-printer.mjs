// The type printer of client/build/generate-api-types.mjs: a type the TypeScript checker resolved,
// as TypeScript source that needs none of the service's declarations.
import ts from 'typescript';

const maxDepth = 40;

/**
 * Prints a resolved type as TypeScript source. A type met inside itself (a job tree's children)
 * becomes a named alias, printed once: `aliases` holds them for the file.
 */
export function typePrinter(checker) {
  const printing = new Set();
  const recursiveNames = new Map();
  const aliases = new Map();

  function aliasName(type) {
    const declared = type.aliasSymbol?.name ?? type.symbol?.name;
    const base = declared && /^[A-Za-z]\w*$/.test(declared) ? declared : 'RecursiveType';
    let name = base;
    for (let n = 2; [...recursiveNames.values()].includes(name); n++) name = `${base}${n}`;
    return name;
  }

  function print(type, depth = 0) {
    if (recursiveNames.has(type)) return recursiveNames.get(type);
    if (printing.has(type)) {
      recursiveNames.set(type, aliasName(type));
      return recursiveNames.get(type);
    }
    if (depth > maxDepth) return 'unknown';
    const flags = type.flags;
    if (flags & ts.TypeFlags.Any) return 'any';
    if (flags & ts.TypeFlags.Unknown) return 'unknown';
    if (flags & ts.TypeFlags.Never) return 'never';
    if (flags & ts.TypeFlags.Void) return 'void';
    if (flags & ts.TypeFlags.Undefined) return 'undefined';
    if (flags & ts.TypeFlags.Null) return 'null';
    if (flags & ts.TypeFlags.String) return 'string';
    if (flags & ts.TypeFlags.Number) return 'number';
    if (flags & ts.TypeFlags.Boolean) return 'boolean';
    if (flags & ts.TypeFlags.BigInt) return 'bigint';
    if (flags & ts.TypeFlags.ESSymbol) return 'symbol';
    if (flags & ts.TypeFlags.StringLiteral) return JSON.stringify(type.value);
    if (flags & ts.TypeFlags.NumberLiteral) return String(type.value);
    if (flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
    if (flags & ts.TypeFlags.TemplateLiteral) return checker.typeToString(type);
    if (flags & ts.TypeFlags.NonPrimitive) return 'object';
    printing.add(type);
    try {
      const text = printComposite(type, depth);
      if (!recursiveNames.has(type)) return text;
      aliases.set(recursiveNames.get(type), text);
      return recursiveNames.get(type);
    } finally {
      printing.delete(type);
    }
  }

  function printComposite(type, depth) {
    if (type.isUnion()) return unionText(type, depth);
    if (type.isIntersection()) return type.types.map((part) => wrap(part, depth)).join(' & ');
    if (checker.isTupleType(type)) {
      const elements = checker.getTypeArguments(type).map((element) => print(element, depth + 1));
      return `[${elements.join(', ')}]`;
    }
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type);
      const readonly = type.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${wrap(element, depth)}[]`;
    }
    const name = type.symbol?.name;
    if (name && globalNames.has(name)) return name;
    return objectText(type, depth);
  }

  /** `boolean` comes back as `false | true`; print it as written. */
  function unionText(type, depth) {
    const parts = type.types;
    const booleans = parts.filter((part) => part.flags & ts.TypeFlags.BooleanLiteral);
    const rest = parts.filter((part) => !(part.flags & ts.TypeFlags.BooleanLiteral)).map((part) => wrap(part, depth));
    const texts =
      booleans.length === 2 ? [...rest, 'boolean'] : [...rest, ...booleans.map((part) => print(part, depth))];
    return texts.join(' | ');
  }

  function wrap(type, depth) {
    const text = print(type, depth + 1);
    return type.isUnion() || type.isIntersection() || text.includes('=>') ? `(${text})` : text;
  }

  function objectText(type, depth) {
    const lines = [];
    for (const info of checker.getIndexInfosOfType(type)) {
      lines.push(`[key: ${print(info.keyType, depth + 1)}]: ${print(info.type, depth + 1)};`);
    }
    for (const property of checker.getPropertiesOfType(type)) {
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const readonly = isReadonly(property) ? 'readonly ' : '';
      lines.push(
        `${readonly}${propertyName(property.name)}${optional}: ${print(checker.getTypeOfSymbol(property), depth + 1)};`,
      );
    }
    if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) lines.push('(...args: never[]): unknown;');
    return lines.length === 0 ? '{}' : `{ ${lines.join(' ')} }`;
  }

  return { print, aliases };
}

const globalNames = new Set(['Date', 'Uint8Array', 'ArrayBuffer', 'RegExp', 'Error', 'URL', 'Blob', 'File']);

function isReadonly(property) {
  const declaration = property.declarations?.[0];
  return declaration ? (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0 : false;
}

export function propertyName(name) {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
