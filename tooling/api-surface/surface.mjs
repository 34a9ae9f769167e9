// A package's public surface: each value it exports and its type, written out (type-text.mjs). Types and
// interfaces exported on their own are left out: they are erased before the code runs, and a change to one
// that matters shows in the type of a value that uses it.
import { createHash } from 'node:crypto';
import ts from 'typescript';
import { moduleOf, resolved } from './program.mjs';
import { typeWriter } from './type-text.mjs';

/**
 * @param {ts.Program} program
 * @param {string} entry the package's entry file
 * @returns {Record<string, string>} export name -> its type, sorted by name
 */
export function surfaceOf(program, entry) {
  const checker = program.getTypeChecker();
  const write = typeWriter(program);
  const surface = {};
  for (const exported of checker.getExportsOfModule(moduleOf(program, entry))) {
    const symbol = resolved(checker, exported);
    if (!(symbol.flags & ts.SymbolFlags.Value)) continue;
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    const type = declaration
      ? checker.getTypeOfSymbolAtLocation(symbol, declaration)
      : checker.getTypeOfSymbol(symbol);
    surface[exported.getName()] = write(type);
  }
  return Object.fromEntries(Object.entries(surface).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The package's compatibility key: a digest of its surface (equal surfaces, equal keys). */
export function surfaceKey(surface) {
  return createHash('sha256').update(JSON.stringify(surface)).digest('hex').slice(0, 12);
}
