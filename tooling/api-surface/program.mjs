// One TypeScript program per build, over the files whose exports the contract describes: TypeScript's own
// compiler API (5.9: the workspace's TypeScript 7 has no API), with the workspace's compiler options.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** tsconfig.base.json's options (JSX through emotion, Bundler resolution), as the apps compile. */
function compilerOptions() {
  const file = path.join(REPO_ROOT, 'tsconfig.base.json');
  const { config, error } = ts.readConfigFile(file, (f) => fs.readFileSync(f, 'utf8'));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, REPO_ROOT);
  // Types of the DOM and of the packages' own imports are enough; no emit, no checking of unrelated files.
  return { ...options, noEmit: true, skipLibCheck: true, types: [] };
}

/** @param {string[]} rootFiles absolute paths */
export function createProgram(rootFiles) {
  return ts.createProgram({ rootNames: rootFiles, options: compilerOptions() });
}

/** A workspace package's entry file ('@app/ui' -> packages/ui/src/index.ts), from its package.json exports. */
export function packageEntry(name) {
  const dir = path.join(REPO_ROOT, 'packages', name.replace(/^@app\//, ''));
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const root = typeof manifest.exports === 'string' ? manifest.exports : manifest.exports?.['.'];
  const entry = typeof root === 'string' ? root : (root?.import ?? root?.default);
  if (!entry) throw new Error(`${name} has no "." export in its package.json`);
  return path.join(dir, entry);
}

/** The module symbol of a source file of the program; throws when the file is not part of it. */
export function moduleOf(program, file) {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not part of the program`);
  const symbol = program.getTypeChecker().getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${file} is not a module`);
  return symbol;
}

/** What an exported name stands for: a re-export (`export { a } from './a'`) resolved to its declaration. */
export function resolved(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}
