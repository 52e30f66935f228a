// Writes client/api-types.ts as a standalone file: every type it exports, resolved
// by the TypeScript checker and printed in full (object shapes, unions, literals), so
// the published client carries the API's types without the service's source.
// AppRouter is printed as a tRPC router of query/mutation procedures with those
// input and output types; the service's context never reaches the package.
import path from 'node:path';
import ts from 'typescript';
import { propertyName, typePrinter } from './type-printer.mjs';

const procedureAliases = {
  query: 'TRPCQueryProcedure',
  mutation: 'TRPCMutationProcedure',
  subscription: 'TRPCSubscriptionProcedure',
};

function propertyType(checker, type, name) {
  const property = checker.getPropertyOfType(type, name);
  return property ? checker.getTypeOfSymbol(property) : undefined;
}

/** The router's record as nested object types whose leaves are tRPC procedure types. */
function routerRecordText(checker, print, record, indent) {
  const lines = [];
  for (const property of checker.getPropertiesOfType(record)) {
    const type = checker.getTypeOfSymbol(property);
    const def = propertyType(checker, type, '_def');
    const pad = '  '.repeat(indent + 1);
    if (def && propertyType(checker, def, 'procedure')) {
      const kind = propertyType(checker, def, 'type').value;
      const types = propertyType(checker, def, '$types');
      const input = print(propertyType(checker, types, 'input'));
      const output = print(propertyType(checker, types, 'output'));
      lines.push(
        `${pad}${propertyName(property.name)}: ${procedureAliases[kind]}<{ input: ${input}; output: ${output}; meta: object }>;`,
      );
    } else {
      const nested = def ? propertyType(checker, def, 'record') : type;
      lines.push(`${pad}${propertyName(property.name)}: ${routerRecordText(checker, print, nested, indent + 1)};`);
    }
  }
  return `{\n${lines.join('\n')}\n${'  '.repeat(indent)}}`;
}

function appRouterText(checker, print, routerType) {
  const def = propertyType(checker, routerType, '_def');
  const rootTypes = propertyType(checker, propertyType(checker, def, '_config'), '$types');
  const errorShape = print(propertyType(checker, rootTypes, 'errorShape'));
  const record = routerRecordText(checker, print, propertyType(checker, def, 'record'), 0);
  return `export type AppRouter = TRPCBuiltRouter<{ ctx: object; meta: object; errorShape: ${errorShape}; transformer: false }, ${record}>;`;
}

/** The standalone text of client/api-types.ts. */
export function generateApiTypes(root) {
  const source = path.join(root, 'client/api-types.ts');
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const program = ts.createProgram([source], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const { print, aliases } = typePrinter(checker);
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(source));
  const declarations = checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    if (exported.name === 'AppRouter') return appRouterText(checker, print, type);
    return `export type ${exported.name} = ${print(type)};`;
  });
  return [
    "// Generated from the service's router and contracts by client/build/generate-api-types.mjs at build time.",
    "import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure, TRPCSubscriptionProcedure } from '@trpc/server';",
    '',
    ...declarations.map((text) => `${text}\n`),
    ...[...aliases].map(
      ([name, text]) => `/** A recursive shape the API returns. */\nexport type ${name} = ${text};\n`,
    ),
  ].join('\n');
}
