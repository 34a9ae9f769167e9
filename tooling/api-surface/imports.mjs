// What an app's own code imports from the shared packages: read from its sources' import declarations
// (syntax only: no type checking is needed to know a name is imported). Type-only imports are erased and
// left out; `import * as ui` or `import('@app/ui')` take the whole package.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const WHOLE_PACKAGE = '*';

/** The app's source files, tests and test support excluded (they never reach a visitor). */
export function sourceFiles(srcDir) {
  return fs
    .readdirSync(srcDir, { recursive: true })
    .map(String)
    .filter((file) => /\.(ts|tsx|mts)$/.test(file) && !/\.d\.ts$/.test(file))
    .filter((file) => !/(^|\/)(test|__tests__|mocks)\//.test(file) && !/\.(test|spec)\.tsx?$/.test(file))
    .map((file) => path.join(srcDir, file))
    .sort();
}

function add(used, pkg, name) {
  if (!used.has(pkg)) used.set(pkg, new Set());
  used.get(pkg).add(name);
}

/**
 * @param {string[]} files
 * @param {string[]} packages the shared packages to look for ('@app/ui', …): exact specifiers only, as a
 *   subpath ('@app/ui/theme-css') is not the shared module but a file bundled into the app
 * @returns {Map<string, Set<string>>} package -> export names (or WHOLE_PACKAGE)
 */
export function importsOf(files, packages) {
  const wanted = new Set(packages);
  const used = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const pkg = node.moduleSpecifier.text;
        const clause = node.importClause;
        if (wanted.has(pkg) && clause && !clause.isTypeOnly) {
          if (clause.name) add(used, pkg, 'default');
          const bindings = clause.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) add(used, pkg, WHOLE_PACKAGE);
          if (bindings && ts.isNamedImports(bindings)) {
            for (const element of bindings.elements) {
              if (!element.isTypeOnly) add(used, pkg, (element.propertyName ?? element.name).text);
            }
          }
        }
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const pkg = node.moduleSpecifier.text;
        if (wanted.has(pkg) && !node.isTypeOnly) {
          const clause = node.exportClause;
          if (!clause || !ts.isNamedExports(clause)) add(used, pkg, WHOLE_PACKAGE);
          else
            for (const element of clause.elements) {
              if (!element.isTypeOnly) add(used, pkg, (element.propertyName ?? element.name).text);
            }
        }
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0]) &&
        wanted.has(node.arguments[0].text)
      ) {
        add(used, node.arguments[0].text, WHOLE_PACKAGE);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return used;
}
