import ts from 'typescript';

/**
 * Type-checks and emits `files` under --strict, as an outside project on Node 22 or a browser would
 * (fetch from lib.dom, no @types). `extra` tightens further, e.g. noUncheckedIndexedAccess.
 */
export function compileStrict(files: string[], outDir: string, extra: ts.CompilerOptions = {}): ts.Diagnostic[] {
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    outDir,
    ...extra,
  });
  return [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
}

/** 1-based line of a diagnostic, for messages that point into generated test files. */
export const lineOf = (diagnostic: ts.Diagnostic) =>
  diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line + 1;
